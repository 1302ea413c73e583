import { ApiError, call } from './api.js';
import { type QueuedItem, read, update } from './store.js';

// Alerts, logs, radar reports and proofs wait here until the server takes them: retried with backoff,
// kept across restarts, bounded (the oldest go first when full, and the number dropped is kept).

export const MAX_QUEUE = 500;
const LOG_BATCH = 500;

export async function enqueue(path: QueuedItem['path'], body: unknown): Promise<void> {
  await update((s) => {
    const item: QueuedItem = { id: crypto.randomUUID(), path, body, attempts: 0, nextAt: 0 };
    if (s.deviceToken && s.organizationId) item.org = s.organizationId;
    const queue = [...(s.queue ?? []), item];
    const over = Math.max(0, queue.length - MAX_QUEUE);
    return { queue: queue.slice(over), dropped: (s.dropped ?? 0) + over };
  });
}

function backoffMs(attempts: number): number {
  return Math.min(10 * 60_000, 5_000 * 2 ** Math.min(attempts, 10));
}

/** The entries of a log batch the server refused for good, as it names them (`rejected`); empty when none. */
export function refusedEntries(body: unknown): Array<{ index: number; message: string }> {
  const rejected = (body as { rejected?: unknown } | null)?.rejected;
  return Array.isArray(rejected) ? (rejected as Array<{ index: number; message: string }>) : [];
}

/**
 * A log batch the server refused whole (4xx) without naming the refused entries: a server before
 * 2026-11-28 refused a batch for one bad entry, and a batch over the body limit gets 413. It is sent again
 * in two halves, each split again if refused whole, down to single entries: only an entry the server will
 * not take even alone is dropped, and one such entry among n costs about 2·log2(n) requests instead of one
 * per entry. Empty when there is nothing to split: one entry (its refusal is final), or the refused entries
 * named (`rejected`, with 207 or, when none could be stored, 400: the others are stored already).
 */
export function splitRefused<T>(batch: T[], body: unknown): T[][] {
  if (batch.length < 2 || refusedEntries(body).length > 0) return [];
  const mid = Math.ceil(batch.length / 2);
  return [batch.slice(0, mid), batch.slice(mid)];
}

/** Posts an item (a batch, for logs); answers a note on the entries the server refused for good, if any. */
async function post(item: QueuedItem, batch: QueuedItem[]): Promise<string | undefined> {
  if (item.path === '/api/v1/endpoint/log') {
    const res = await call(item.path, { body: { entries: batch.map((b) => b.body) } });
    const refused = refusedEntries(res.body);
    // 207: the others were stored; the refused ones are invalid and would be refused again.
    if (refused.length > 0)
      return `${refused.length} of ${batch.length} logs refused: ${refused[0]?.message ?? ''}`;
  } else if (item.path === '/api/v1/eps/proof') {
    const p = item.body as { pdfBase64: string; metadata: Record<string, unknown> };
    const bytes = Uint8Array.from(atob(p.pdfBase64), (c) => c.charCodeAt(0));
    const form = new FormData();
    form.append('metadata', JSON.stringify(p.metadata));
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'proof.pdf');
    await call(item.path, { form });
  } else {
    await call(item.path, { body: item.body });
  }
}

let running: Promise<void> | null = null;
let followUp: Promise<void> | null = null;

/**
 * Uploads what is due. A call during a run gets one more run after it (shared by every call meanwhile):
 * the running one read the queue before the caller's item was added, and that item must not wait for the
 * next heartbeat.
 */
export function flush(): Promise<void> {
  if (!running) {
    running = run(Date.now()).finally(() => {
      running = null;
    });
    return running;
  }
  const again = () => {
    followUp = null;
    return flush();
  };
  followUp ??= running.then(again, again);
  return followUp;
}

async function run(now: number): Promise<void> {
  const s = await read();
  if (!s.deviceToken) return;
  // Another organization's items (queued before the device was unenrolled and enrolled elsewhere) never
  // go to this one: their alerts, logs and proofs describe that organization's user and policy.
  const due = (s.queue ?? []).filter(
    (q) => q.nextAt <= now && (q.org === undefined || q.org === s.organizationId),
  );
  const done = new Set<string>();
  const failed = new Map<string, number>();
  let lastError: string | undefined;
  // Items the server refused as too large even alone (413): dropped, and counted here.
  let tooLarge = 0;
  const logs = due.filter((q) => q.path === '/api/v1/endpoint/log');
  const groups: QueuedItem[][] = [];
  for (let i = 0; i < logs.length; i += LOG_BATCH) groups.push(logs.slice(i, i + LOG_BATCH));
  for (const q of due) if (q.path !== '/api/v1/endpoint/log') groups.push([q]);
  for (let n = 0; n < groups.length; n++) {
    const group = groups[n]!;
    try {
      const note = await post(group[0]!, group);
      for (const g of group) done.add(g.id);
      if (note) lastError = `${group[0]!.path}: ${note}`;
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, null);
      lastError = `${group[0]!.path}: ${e.message}`;
      if (e.status === 401 || e.retryable) {
        for (const g of group) failed.set(g.id, g.attempts + 1);
        if (e.status === 0 || e.status === 401) break; // offline or not enrolled: try again later
      } else {
        const halves = splitRefused(group, e.body);
        if (halves.length > 0) {
          // Refused whole without naming the entries (an older server, or too large): the halves go again
          // in this run, so only an entry it will not take alone is dropped, not the good ones around it.
          groups.push(...halves);
        } else {
          // The server refused this item, or every entry of this batch by name (4xx): retrying cannot
          // help, and it must not block the others.
          if (e.status === 413) tooLarge += group.length;
          for (const g of group) done.add(g.id);
        }
      }
    }
  }
  await update((cur) => ({
    queue: (cur.queue ?? [])
      .filter((q) => !done.has(q.id))
      .map((q) => {
        const attempts = failed.get(q.id);
        return attempts === undefined ? q : { ...q, attempts, nextAt: now + backoffMs(attempts) };
      }),
    ...(lastError ? { lastError } : {}),
    ...(tooLarge > 0 ? { tooLarge: (cur.tooLarge ?? 0) + tooLarge } : {}),
  }));
}
