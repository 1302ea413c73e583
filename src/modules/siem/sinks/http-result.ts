import { OutboundError, type OutboundResponse } from '../../../platform/net/index.js';
import type { SiemEvent, SinkResult } from '../formats/types.js';

/**
 * Drops the query of every address-like text (`?token=…` becomes `?…`): a collector that echoes the request
 * ("Cannot POST /collect?token=…") would otherwise store its credential with the failure.
 */
export function withoutQueries(text: string): string {
  return text.replace(/\?[^\s"'<>]+/g, '?…');
}

/** Keeps response text in errors short: it is stored with the failure and may echo our payload. */
export function snippet(body: string, max = 200): string {
  const flat = withoutQueries(body).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Maps an HTTP answer to a SinkResult: 2xx ok; 401/403 keep the data (credentials get fixed) but mark
 * the failure as auth so the destination is paused and someone is alerted; 408, 425, 429 and 5xx retry;
 * other 4xx are permanent (the payload will never be accepted).
 */
export function resultFromStatus(res: OutboundResponse, okStatuses?: readonly number[]): SinkResult {
  const s = res.status;
  const ok = okStatuses ? okStatuses.includes(s) : s >= 200 && s < 300;
  if (ok) return { ok: true, retryable: false, status: s };
  const out: SinkResult = { ok: false, retryable: true, status: s, error: `HTTP ${s}: ${snippet(res.body)}` };
  const ra = retryAfterMs(res.headers['retry-after']);
  if (ra !== null) out.retryAfterMs = ra;
  if (s === 401 || s === 403) out.reason = 'auth';
  else if (s === 408 || s === 425 || s === 429 || s >= 500 || (s >= 300 && s < 400)) out.reason = 'transient';
  else {
    out.reason = 'permanent';
    out.retryable = false;
  }
  return out;
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | null {
  if (header === undefined) return null;
  const v = header.trim();
  if (/^[0-9]+$/.test(v)) return Number(v) * 1000;
  const at = /[a-z]/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function resultFromError(err: unknown): SinkResult {
  if (err instanceof OutboundError) {
    return {
      ok: false,
      retryable: err.retryable,
      reason: err.code === 'ssrf_blocked' ? 'blocked' : err.retryable ? 'transient' : 'permanent',
      error: `${err.code}: ${err.message}`,
    };
  }
  const msg = err instanceof Error ? err.message : String(err);
  return { ok: false, retryable: true, reason: 'transient', error: msg };
}

/** Every event of a failed request becomes a rejection, so results of split batches can be merged. */
function asRejections(events: readonly SiemEvent[], r: SinkResult) {
  if (r.ok) return [];
  if (r.rejected !== undefined) return r.rejected;
  return events.map((e) => ({ id: e.id, retryable: r.retryable, error: r.error ?? 'failed' }));
}

/**
 * Sends a batch, halving it on 413 until the destination accepts the size (a single event that is still
 * too large is permanent). Partial failures come back as per-event rejections.
 */
export async function sendSplittingOn413(
  events: readonly SiemEvent[],
  sendOnce: (batch: readonly SiemEvent[]) => Promise<SinkResult>,
): Promise<SinkResult> {
  const first = await sendOnce(events);
  if (first.status !== 413) return first;
  if (events.length <= 1) return { ...first, retryable: false, reason: 'permanent' };
  const mid = Math.ceil(events.length / 2);
  const left = events.slice(0, mid);
  const right = events.slice(mid);
  const a = await sendSplittingOn413(left, sendOnce);
  const b = await sendSplittingOn413(right, sendOnce);
  return mergeResults([
    [left, a],
    [right, b],
  ]);
}

/** Combines the results of consecutive sub-batches into one. */
export function mergeResults(parts: [readonly SiemEvent[], SinkResult][]): SinkResult {
  if (parts.every(([, r]) => r.ok)) {
    const last = parts[parts.length - 1]?.[1];
    return { ok: true, retryable: false, ...(last?.status === undefined ? {} : { status: last.status }) };
  }
  const rejected = parts.flatMap(([evs, r]) => asRejections(evs, r));
  const failed = parts.map(([, r]) => r).filter((r) => !r.ok);
  const worst = failed.find((r) => r.reason === 'auth') ?? failed[0]!;
  const out: SinkResult = {
    ok: false,
    retryable: rejected.some((x) => x.retryable),
    rejected,
    error: worst.error ?? 'failed',
  };
  if (worst.status !== undefined) out.status = worst.status;
  if (worst.reason !== undefined) out.reason = worst.reason;
  const ra = Math.max(0, ...failed.map((r) => r.retryAfterMs ?? 0));
  if (ra > 0) out.retryAfterMs = ra;
  return out;
}

/** Splits events into consecutive groups whose serialized size stays under maxBytes. */
export function chunkBySize<T>(
  items: readonly T[],
  size: (item: T) => number,
  maxBytes: number,
  maxItems = Infinity,
) {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const it of items) {
    const s = size(it);
    if (cur.length > 0 && (bytes + s > maxBytes || cur.length >= maxItems)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(it);
    bytes += s;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
