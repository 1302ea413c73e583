import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import mammoth from 'mammoth';
import { htmlToText } from '../html-text.js';
import { rowSentence } from './rows.js';
import { type ConnectorResult, type FetchedDocument, SourceError, type SourceTarget } from './types.js';

const KINDS = ['.pdf', '.docx', '.html', '.htm', '.md', '.markdown', '.txt', '.text', '.csv'];

export function isSupportedFile(name: string): boolean {
  return KINDS.includes(extname(name).toLowerCase());
}

export function pathOf(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

/** A file source: the uploaded copy or a path the server can read; one document, PDFs one per page. */
export async function readFileSource(target: SourceTarget): Promise<ConnectorResult> {
  const path = target.storedFile ?? pathOf(target.url);
  const name = target.fileName ?? basename(path);
  const ext = extname(name).toLowerCase();
  if (!KINDS.includes(ext))
    throw new SourceError(`unsupported file type ${ext || '(none)'}; use ${KINDS.join(' ')}`);
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    throw new SourceError(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return { documents: await parseFile(name, ext, data), unchanged: [], skipped: [] };
}

export async function parseFile(name: string, ext: string, data: Buffer): Promise<FetchedDocument[]> {
  switch (ext) {
    case '.pdf':
      return pdfPages(name, data);
    case '.docx': {
      const { value } = await mammoth.extractRawText({ buffer: data });
      return [{ citation: name, title: null, text: value }];
    }
    case '.html':
    case '.htm': {
      const h = htmlToText(data.toString('utf8'));
      return [{ citation: name, title: h.title, text: h.text }];
    }
    case '.md':
    case '.markdown':
      return [{ citation: name, title: null, text: markdownToText(data.toString('utf8')) }];
    case '.csv':
      return [csvDocument(name, data.toString('utf8'))];
    default:
      return [{ citation: name, title: null, text: data.toString('utf8') }];
  }
}

async function pdfPages(name: string, data: Buffer): Promise<FetchedDocument[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(data),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    throw new SourceError(`not a readable PDF: ${(err as Error).message}`);
  }
  try {
    const out: FetchedDocument[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        text += item.hasEOL ? '\n' : item.str.endsWith(' ') ? '' : ' ';
      }
      page.cleanup();
      if (text.trim())
        out.push({ citation: `${name}#page=${n}`, title: null, text: text.replace(/\n{2,}/g, '\n\n') });
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** Markdown without its markup: headings, emphasis, links (their text), code fences, tables' pipes. */
export function markdownToText(md: string): string {
  return md
    .replace(/```[\s\S]*?```/g, '\n')
    .replace(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm, '$1\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|~~|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/\|/g, ' ');
}

/** CSV (RFC 4180: quotes, doubled quotes, newlines in quotes): the header names the cells of each row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const sep = detectSeparator(text);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((x) => x.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell);
  if (row.some((x) => x.trim() !== '')) rows.push(row);
  return rows;
}

function detectSeparator(text: string): string {
  const first = text.slice(0, text.indexOf('\n') >>> 0 || text.length);
  const counts = [',', ';', '\t'].map((s) => [s, first.split(s).length] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![0];
}

function csvDocument(name: string, text: string): FetchedDocument {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  const columns = header ?? [];
  const passages = rows.map((r, i) =>
    rowSentence(
      `${name} row ${i + 1}`,
      columns.map((c, j) => [c, r[j] ?? ''] as [string, unknown]),
    ),
  );
  return { citation: name, title: null, text: passages.join('\n'), passages };
}
