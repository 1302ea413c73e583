import JSZip from 'jszip';

// Excel (.xlsx) and PowerPoint (.pptx) text for the DLP and injection checks. Both are zips of XML parts
// (ECMA-376, Office Open XML); what a user typed sits in a few well-defined elements: cell values and the
// shared-string table, comments; slide, notes and comment text. Those elements are read, nothing else (no
// styles, no formulas, no embedded objects). Inflating is bounded on the bytes actually produced, not on
// the sizes the zip declares, so a crafted archive cannot exhaust the extractor's memory.

export type OfficeKind = 'xlsx' | 'pptx';

export const MAX_PART_CHARS = 16 * 1024 * 1024;
export const MAX_TOTAL_CHARS = 64 * 1024 * 1024;

interface StreamHelper {
  on(event: 'data', cb: (chunk: string) => void): StreamHelper;
  on(event: 'end', cb: () => void): StreamHelper;
  on(event: 'error', cb: (err: Error) => void): StreamHelper;
  resume(): StreamHelper;
  pause(): StreamHelper;
}

class Budget {
  used = 0;
}

/** One part as text, inflated chunk by chunk and abandoned as soon as it goes over the limits. */
function readPart(file: JSZip.JSZipObject, budget: Budget): Promise<string> {
  // internalStream is JSZip's public streaming reader of one entry (not in its type definitions).
  const stream = (file as unknown as { internalStream(type: 'string'): StreamHelper }).internalStream(
    'string',
  );
  return new Promise((resolve, reject) => {
    const parts: string[] = [];
    let size = 0;
    let stopped = false;
    stream
      .on('data', (chunk) => {
        if (stopped) return;
        size += chunk.length;
        budget.used += chunk.length;
        if (size > MAX_PART_CHARS || budget.used > MAX_TOTAL_CHARS) {
          stopped = true;
          stream.pause();
          reject(new Error('the file is too large once uncompressed'));
          return;
        }
        parts.push(chunk);
      })
      .on('error', (err) => {
        stopped = true;
        reject(err);
      })
      .on('end', () => {
        if (!stopped) resolve(parts.join(''));
      })
      .resume();
  });
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character data with its entity and character references resolved. */
export function xmlText(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The concatenated content of every `<tag …>…</tag>` in `xml` (tag with its namespace prefix). */
function textsOf(xml: string, tag: string): string {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');
  let out = '';
  for (const m of xml.matchAll(re)) out += xmlText(m[1]!);
  return out;
}

/** Parts named `<prefix><n>.xml`, in the order of n (slide2 before slide10). */
function numbered(zip: JSZip, prefix: string): JSZip.JSZipObject[] {
  const re = new RegExp(`^${prefix.replace(/[.]/g, '\\.')}(\\d+)\\.xml$`);
  return zip
    .file(re)
    .map((f) => ({ f, n: Number(re.exec(f.name)![1]) }))
    .sort((a, b) => a.n - b.n)
    .map((x) => x.f);
}

async function xlsxText(zip: JSZip, budget: Budget): Promise<string> {
  const sst = zip.file('xl/sharedStrings.xml');
  const shared: string[] = [];
  if (sst) {
    // Phonetic runs (<rPh>, ruby text of East Asian names) repeat the string: dropped.
    const xml = (await readPart(sst, budget)).replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
    for (const m of xml.matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)) shared.push(textsOf(m[1]!, 't'));
  }
  const sheets: string[] = [];
  for (const part of numbered(zip, 'xl/worksheets/sheet')) {
    const xml = await readPart(part, budget);
    const rows: string[] = [];
    for (const row of xml.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells: string[] = [];
      for (const c of row[1]!.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const type = /\bt="([^"]*)"/.exec(c[1]!)?.[1] ?? 'n';
        const body = c[2] ?? '';
        const value = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/.exec(body)?.[1];
        if (type === 's') cells.push(value === undefined ? '' : (shared[Number(value)] ?? ''));
        else if (type === 'inlineStr') cells.push(textsOf(body, 't'));
        else cells.push(value === undefined ? '' : xmlText(value));
      }
      while (cells.length > 0 && cells.at(-1) === '') cells.pop();
      if (cells.length > 0) rows.push(cells.join('\t'));
    }
    sheets.push(rows.join('\n'));
  }
  // Cell comments (legacy and threaded) are text a user wrote too.
  for (const part of numbered(zip, 'xl/comments')) sheets.push(textsOf(await readPart(part, budget), 't'));
  for (const part of numbered(zip, 'xl/threadedComments/threadedComment'))
    sheets.push(textsOf(await readPart(part, budget), 'text'));
  return sheets.filter((s) => s.length > 0).join('\n\n');
}

function drawingParagraphs(xml: string): string {
  const paragraphs: string[] = [];
  for (const p of xml.matchAll(/<a:p\b[^>]*>([\s\S]*?)<\/a:p>/g)) {
    // A line break inside a paragraph separates words as a space would.
    const text = textsOf(p[1]!.replace(/<a:br\b[^>]*\/>/g, '<a:t> </a:t>'), 'a:t');
    if (text.length > 0) paragraphs.push(text);
  }
  return paragraphs.join('\n');
}

async function pptxText(zip: JSZip, budget: Budget): Promise<string> {
  const out: string[] = [];
  for (const part of numbered(zip, 'ppt/slides/slide'))
    out.push(drawingParagraphs(await readPart(part, budget)));
  for (const part of numbered(zip, 'ppt/notesSlides/notesSlide'))
    out.push(drawingParagraphs(await readPart(part, budget)));
  for (const part of numbered(zip, 'ppt/comments/comment'))
    out.push(textsOf(await readPart(part, budget), 'p:text'));
  return out.filter((s) => s.length > 0).join('\n\n');
}

/** The text of an Excel or PowerPoint file; throws when it is not one or when it is too large inflated. */
export async function officeText(data: Uint8Array, kind: OfficeKind): Promise<string> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw new Error(`not a readable ${kind === 'xlsx' ? 'Excel' : 'PowerPoint'} file (not a zip)`);
  }
  const budget = new Budget();
  if (kind === 'xlsx') {
    if (!zip.file('xl/workbook.xml')) throw new Error('not an Excel workbook (no xl/workbook.xml)');
    return xlsxText(zip, budget);
  }
  if (!zip.file('ppt/presentation.xml'))
    throw new Error('not a PowerPoint presentation (no ppt/presentation.xml)');
  return pptxText(zip, budget);
}
