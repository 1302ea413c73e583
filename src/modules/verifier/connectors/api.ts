import { normalizeUrl } from './website.js';
import { rowSentence } from './rows.js';
import {
  type ConnectorDeps,
  type ConnectorResult,
  type FetchedDocument,
  SourceError,
  type SourceTarget,
} from './types.js';

const API_TIMEOUT_MS = 30_000;
export const MAX_API_BYTES = 20 * 1024 * 1024;
/** Fields that name a record, in the order they are tried for its citation. */
const ID_FIELDS = ['id', 'uuid', 'key', 'slug', 'code', 'name'];

/**
 * A JSON HTTP endpoint, read with its (sealed) headers. An array, or the first array under the top-level
 * object (`{"data": [...]}`), gives one document per record; anything else is one document. Records are
 * flattened into one sentence of `path value` pairs and cited as `url#id=…` (or `#index`).
 */
export async function readApi(target: SourceTarget, deps: ConnectorDeps): Promise<ConnectorResult> {
  const url = normalizeUrl(target.url);
  if (!url) throw new SourceError('the api URL must be http(s) without credentials (put them in headers)');
  let res: Awaited<ReturnType<ConnectorDeps['outbound']['request']>>;
  try {
    res = await deps.outbound.request(target.url, {
      headers: { accept: 'application/json', 'user-agent': deps.userAgent, ...(target.headers ?? {}) },
      timeoutMs: API_TIMEOUT_MS,
      maxResponseBytes: MAX_API_BYTES,
    });
  } catch (err) {
    throw new SourceError(`the api could not be reached: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw new SourceError(`the api answered HTTP ${res.status}`);
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new SourceError('the api did not answer with JSON');
  }
  // Citations are shown to every key holder: the query (which may carry an API key) stays out of them.
  const parsed = new URL(url);
  const citeBase = `${parsed.origin}${parsed.pathname}`;
  const records = recordsOf(body);
  const documents: FetchedDocument[] = [];
  records.slice(0, deps.maxRows).forEach((r, i) => {
    const id = recordId(r) ?? String(i);
    const citation = `${citeBase}#${recordId(r) ? `id=${id}` : id}`;
    const cells = flatten(r);
    const passage = rowSentence(`record ${id}`, cells);
    documents.push({ citation, title: null, text: passage, passages: [passage] });
  });
  const skipped =
    records.length > deps.maxRows
      ? [{ what: `${records.length - deps.maxRows} records`, reason: 'row limit' }]
      : [];
  return { documents, unchanged: [], skipped };
}

function recordsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const v of Object.values(body)) if (Array.isArray(v)) return v;
    return [body];
  }
  return [body];
}

function recordId(r: unknown): string | null {
  if (!r || typeof r !== 'object') return null;
  for (const f of ID_FIELDS) {
    const v = (r as Record<string, unknown>)[f];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
}

/** Nested objects and arrays to `a.b.0.c value` pairs (depth-limited: a record, not a whole database). */
export function flatten(
  value: unknown,
  prefix = '',
  depth = 0,
  out: Array<[string, unknown]> = [],
): Array<[string, unknown]> {
  if (value !== null && typeof value === 'object' && depth < 6) {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix} ${k}` : k, depth + 1, out);
  } else out.push([prefix || 'value', value]);
  return out;
}
