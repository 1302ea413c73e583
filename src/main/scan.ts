import { type ReadStream, createReadStream, createWriteStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { parse as parseCsv } from 'csv-parse';
import { analyze } from '../engines/detection/index.js';
import { detectEntities } from '../engines/dlp/index.js';

/**
 * `parapet scan FILE`: offline bulk check of a file of prompts for injections and personal data, with the
 * same engines as the API and no server or database. Output rows carry verdicts, scores and the types of
 * personal data found, never the text or a value from it, so a scan of real prompts can be shared.
 */

export type ScanInput = 'jsonl' | 'csv' | 'lines';
export type ScanOutput = 'jsonl' | 'csv';

export interface ScanOptions {
  file: string;
  input?: ScanInput;
  /** JSONL key or CSV column holding the prompt; default: prompt, text, input, content, or the first. */
  field?: string;
  out?: NodeJS.WritableStream & { end(cb?: () => void): unknown };
  format?: ScanOutput;
  /** Where progress goes when it is a terminal (stderr). */
  progress?: NodeJS.WriteStream;
}

export interface ScanRow {
  row: number;
  chars: number;
  injection: boolean;
  score: number;
  severity: string;
  action: string;
  categories: string[];
  piiCount: number;
  piiTypes: Record<string, number>;
  error?: string;
}

export interface ScanSummary {
  rows: number;
  injections: number;
  bySeverity: Record<string, number>;
  rowsWithPii: number;
  piiByType: Record<string, number>;
  errors: number;
  seconds: number;
}

const TEXT_FIELDS = ['prompt', 'text', 'input', 'content', 'message'];

export function inputKind(file: string): ScanInput {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv') return 'csv';
  return 'lines';
}

function pickField(obj: Record<string, unknown>, field: string | undefined): string | undefined {
  if (field !== undefined) {
    const v = obj[field];
    return typeof v === 'string' ? v : undefined;
  }
  for (const k of TEXT_FIELDS) if (typeof obj[k] === 'string') return obj[k] as string;
  const first = Object.values(obj).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : undefined;
}

/** Yields the prompts of the file with their 1-based row numbers; a row it cannot read yields an error. */
async function* prompts(
  opts: ScanOptions,
  kind: ScanInput,
  stream: ReadStream,
): AsyncGenerator<{ text?: string; error?: string }> {
  if (kind === 'csv') {
    const parser = stream.pipe(
      parseCsv({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }),
    );
    for await (const record of parser as AsyncIterable<Record<string, unknown>>) {
      const text = pickField(record, opts.field);
      yield text === undefined ? { error: 'no text column' } : { text };
    }
    return;
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    if (kind === 'lines') {
      yield { text: line };
      continue;
    }
    try {
      const v = JSON.parse(line) as unknown;
      const text =
        typeof v === 'string'
          ? v
          : v && typeof v === 'object'
            ? pickField(v as Record<string, unknown>, opts.field)
            : undefined;
      yield text === undefined ? { error: 'no text field' } : { text };
    } catch {
      yield { error: 'not JSON' };
    }
  }
}

export function scanText(text: string): Omit<ScanRow, 'row'> {
  const a = analyze(text);
  const piiTypes: Record<string, number> = {};
  const entities = detectEntities(text);
  for (const e of entities) piiTypes[e.type] = (piiTypes[e.type] ?? 0) + 1;
  return {
    chars: text.length,
    injection: !a.safe,
    score: a.score,
    severity: a.severity,
    action: a.action,
    categories: a.categories,
    piiCount: entities.length,
    piiTypes,
  };
}

const CSV_HEADER = 'row,chars,injection,score,severity,action,categories,piiCount,piiTypes,error';

function csvLine(r: ScanRow): string {
  const types = Object.entries(r.piiTypes)
    .map(([k, n]) => `${k}:${n}`)
    .join(' ');
  // Categories and types are engine names (letters, digits, underscores): no quoting needed.
  return [
    r.row,
    r.chars,
    r.injection,
    r.score,
    r.severity,
    r.action,
    r.categories.join(' '),
    r.piiCount,
    types,
    r.error ?? '',
  ].join(',');
}

function bar(done: number, total: number, rows: number): string {
  const width = 30;
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)} %  ${rows} rows`;
}

export async function scanFile(opts: ScanOptions): Promise<ScanSummary> {
  const kind = opts.input ?? inputKind(opts.file);
  const size = statSync(opts.file).size;
  const started = performance.now();
  const summary: ScanSummary = {
    rows: 0,
    injections: 0,
    bySeverity: {},
    rowsWithPii: 0,
    piiByType: {},
    errors: 0,
    seconds: 0,
  };
  const format = opts.format ?? 'jsonl';
  if (opts.out && format === 'csv') opts.out.write(`${CSV_HEADER}\r\n`);
  const tty = opts.progress?.isTTY ? opts.progress : undefined;
  // Progress is the share of the file's bytes read so far (what a JSONL or CSV row's prompt is a part of).
  const stream = createReadStream(opts.file);
  for await (const p of prompts(opts, kind, stream)) {
    summary.rows++;
    let row: ScanRow;
    if (p.text === undefined) {
      summary.errors++;
      row = {
        row: summary.rows,
        chars: 0,
        injection: false,
        score: 0,
        severity: '',
        action: '',
        categories: [],
        piiCount: 0,
        piiTypes: {},
        error: p.error ?? 'unreadable',
      };
    } else {
      row = { row: summary.rows, ...scanText(p.text) };
      if (row.injection) {
        summary.injections++;
        summary.bySeverity[row.severity] = (summary.bySeverity[row.severity] ?? 0) + 1;
      }
      if (row.piiCount > 0) summary.rowsWithPii++;
      for (const [t, n] of Object.entries(row.piiTypes))
        summary.piiByType[t] = (summary.piiByType[t] ?? 0) + n;
    }
    if (opts.out) {
      const ok = opts.out.write(format === 'csv' ? `${csvLine(row)}\r\n` : `${JSON.stringify(row)}\n`);
      if (!ok) await new Promise((r) => opts.out!.once('drain', r));
    }
    if (summary.rows % 200 === 0) {
      tty?.write(bar(stream.bytesRead, size, summary.rows));
      await yieldToLoop();
    }
  }
  if (tty) tty.write(`${bar(size, size, summary.rows)}\n`);
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}

export function summaryTable(s: ScanSummary): string {
  const lines = [
    `rows scanned          ${s.rows}${s.errors ? ` (${s.errors} unreadable)` : ''}`,
    `injections            ${s.injections}${s.rows ? ` (${((s.injections / s.rows) * 100).toFixed(1)} %)` : ''}`,
  ];
  for (const sev of ['critical', 'high', 'medium', 'low']) {
    if (s.bySeverity[sev]) lines.push(`  ${sev.padEnd(20)}${s.bySeverity[sev]}`);
  }
  lines.push(`rows with personal data ${s.rowsWithPii}`);
  for (const [t, n] of Object.entries(s.piiByType).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${t.padEnd(20)}${n}`);
  lines.push(`time                  ${s.seconds} s`);
  return lines.join('\n');
}

export function openOutput(path: string) {
  return createWriteStream(path, { mode: 0o600 });
}
