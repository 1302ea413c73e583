import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import mammoth from 'mammoth';
import { htmlToText } from '../html-text.js';
import { LocalFileProblem, localPath, type OwnData, openLocalFile } from './local-file.js';
import { rowSentence } from './rows.js';
import { type ConnectorResult, type FetchedDocument, SourceError, type SourceTarget } from './types.js';

const KINDS = ['.pdf', '.docx', '.html', '.htm', '.md', '.markdown', '.txt', '.text', '.csv'];

export function isSupportedFile(name: string): boolean {
  return KINDS.includes(extname(name).toLowerCase());
}

export const SUPPORTED_FILES = KINDS.join(' ');

/**
 * A file source: the uploaded copy or a path the server can read; one document, PDFs one per page. A path
 * is judged again at every read (it was at registration too): a link may have been pointed since at the
 * verifier's own files, and the read goes through the handle that was judged.
 */
export async function readFileSource(target: SourceTarget, own: OwnData): Promise<ConnectorResult> {
  const path = target.storedFile ?? localPath(target.url) ?? target.url;
  const name = target.fileName ?? basename(path);
  const ext = extname(name).toLowerCase();
  if (!KINDS.includes(ext))
    throw new SourceError(`unsupported file type ${ext || '(none)'}; use ${SUPPORTED_FILES}`);
  let data: Buffer;
  try {
    if (target.storedFile) data = await readFile(path);
    else {
      const { handle } = await openLocalFile(path, own);
      try {
        data = await handle.readFile();
      } finally {
        await handle.close();
      }
    }
  } catch (err) {
    if (err instanceof LocalFileProblem) throw new SourceError(`${path} ${err.message}`);
    throw new SourceError(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return { documents: await parseFile(name, ext, data), unchanged: [], skipped: [] };
}

/**
 * Why mammoth could not read a DOCX, in our own words: its messages come from the zip and XML parsers, and
 * an XML parser's message may quote the document.
 */
function docxProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (/zip|central directory|end of data/i.test(message))
    return 'not a readable DOCX: not a zip archive, or a damaged or truncated one';
  if (/main document part/i.test(message))
    return 'not a readable DOCX: the archive has no Word document in it (word/document.xml)';
  if (/xml|parse/i.test(message)) return 'not a readable DOCX: its document XML is damaged';
  return 'not a readable DOCX: the file is damaged or not a Word document';
}

export async function parseFile(name: string, ext: string, data: Buffer): Promise<FetchedDocument[]> {
  switch (ext) {
    case '.pdf':
      return pdfPages(name, data);
    case '.docx': {
      try {
        const { value } = await mammoth.extractRawText({ buffer: data });
        return [{ citation: name, title: null, text: value }];
      } catch (err) {
        throw new SourceError(docxProblem(err));
      }
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
      const page = await doc.getPage(n).catch(() => {
        throw new SourceError(`not a readable PDF: page ${n} is damaged`);
      });
      const content = await page.getTextContent().catch(() => {
        throw new SourceError(`not a readable PDF: the text of page ${n} is damaged`);
      });
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
    .split('\n')
    .filter((line) => !isTableRule(line))
    .join('\n')
    .replace(/\|/g, ' ');
}

const BLANK = /\s/;
const isBlank = (c: string): boolean => c !== '' && BLANK.test(c);

/**
 * A table's rule line (`|---|:---:|`, `--- | ---`): cells of three dashes or more, each optionally
 * colon-aligned and closed by a pipe, then an optional last cell. One pass over the line: the pattern it
 * replaces, /^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/m, let its space runs trade characters between
 * repetitions and took 6.5 s on one crafted line of 800 characters in a source document (longer lines never
 * finished), which held the verification server's indexing.
 */
export function isTableRule(line: string): boolean {
  let i = 0;
  const n = line.length;
  const spaces = (): void => {
    while (i < n && isBlank(line.charAt(i))) i++;
  };
  spaces();
  if (line.charAt(i) === '|') i++;
  let cells = 0;
  for (;;) {
    spaces();
    if (line.charAt(i) === ':') i++;
    let dashes = 0;
    while (line.charAt(i) === '-') {
      dashes++;
      i++;
    }
    if (line.charAt(i) === ':') i++;
    spaces();
    if (i === n) return cells > 0;
    if (dashes < 3 || line.charAt(i) !== '|') return false;
    i++;
    cells++;
  }
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
