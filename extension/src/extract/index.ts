import mammoth from 'mammoth';
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import { createWorker, type Worker as OcrWorker } from 'tesseract.js';
import type { ExtractRequest, ExtractResult } from '../shared/messages.js';
import { ocrLanguages } from '../shared/ocr-langs.js';
import { officeText } from './ooxml.js';

// The text extractor: an offscreen document on Chrome (a service worker cannot start workers), a frame of
// the background page on Firefox. Images go through OCR (tesseract.js, its core and the trained data of
// English, French, German and Italian shipped in the extension: nothing is fetched), PDFs through pdf.js,
// Word documents through mammoth, Excel and PowerPoint through ooxml.ts. Everything runs on the device;
// the text goes back to the content script for the DLP and injection checks.

const url = (p: string) => chrome.runtime.getURL(p);
GlobalWorkerOptions.workerSrc = url('pdf.worker.min.mjs');

// One OCR worker at a time, for one language set: a user's languages rarely change, and each model set
// costs memory.
let ocr: { langs: string; worker: Promise<OcrWorker> } | null = null;
function ocrWorker(langs: string): Promise<OcrWorker> {
  if (ocr?.langs === langs) return ocr.worker;
  const previous = ocr?.worker;
  ocr = {
    langs,
    worker: createWorker(langs.split('+'), 1, {
      workerPath: url('ocr/worker.js'),
      corePath: url('ocr/core/tesseract-core-simd-lstm.wasm.js'),
      langPath: url('ocr/lang'),
      workerBlobURL: false,
      cacheMethod: 'none',
      gzip: true,
    }),
  };
  const current = ocr;
  current.worker.catch(() => {
    if (ocr === current) ocr = null; // a failed start is tried again with the next image
  });
  void previous?.then((w) => w.terminate()).catch(() => undefined);
  return current.worker;
}

function bytesOf(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const MAX_PAGES = 50;

async function pdfText(data: Uint8Array): Promise<string> {
  const doc = await getDocument({ data, isEvalSupported: false, useSystemFonts: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= Math.min(doc.numPages, MAX_PAGES); i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return parts.join('\n');
}

export async function extract(req: ExtractRequest): Promise<ExtractResult> {
  const data = bytesOf(req.base64);
  const started = performance.now();
  let text: string;
  let method: ExtractResult['method'];
  if (req.mime.startsWith('image/')) {
    const langs = ocrLanguages(req.languages);
    const worker = await ocrWorker(langs);
    const r = await worker.recognize(new Blob([data as BlobPart], { type: req.mime }));
    text = r.data.text;
    method = 'ocr';
    return { text, method, ms: Math.round(performance.now() - started), languages: langs };
  } else if (req.mime === 'application/pdf' || /\.pdf$/i.test(req.name)) {
    text = await pdfText(data);
    method = 'pdf';
  } else if (/\.xls[xm]$/i.test(req.name)) {
    text = await officeText(data, 'xlsx');
    method = 'xlsx';
  } else if (/\.ppt[xm]$/i.test(req.name)) {
    text = await officeText(data, 'pptx');
    method = 'pptx';
  } else {
    const r = await mammoth.extractRawText({ arrayBuffer: data.buffer as ArrayBuffer });
    text = r.value;
    method = 'docx';
  }
  return { text, method, ms: Math.round(performance.now() - started) };
}

chrome.runtime.onMessage.addListener((msg: { target?: string; request?: ExtractRequest }, _sender, reply) => {
  if (msg.target !== 'extractor' || !msg.request) return false;
  extract(msg.request).then(reply, (err) =>
    reply({ error: err instanceof Error ? err.message : String(err) }),
  );
  return true;
});
