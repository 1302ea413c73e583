import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { flush, refusedEntries, splitRefused } from '../src/background/queue.js';
import type { QueuedItem, State } from '../src/background/store.js';
import { localArea } from './chrome-storage.js';

// The upload queue of the service worker against a server with a body limit: a log batch answered 413 is
// split in halves, again and again, down to single entries. Only an entry too large alone is dropped (and
// counted); every other entry is stored, with about 2·log2(n) requests for one such entry, not one per entry.
// chrome.storage.local and fetch are stand-ins here; the real ones are exercised by e2e.test.ts.

const LIMIT = 3_000; // bytes of a request body the stand-in server takes
let storage: Record<string, unknown>;
let batches: string[][];
let stored: string[];
const realFetch = globalThis.fetch;

beforeEach(() => {
  storage = { serverUrl: 'http://parapet.test', deviceToken: 'dt_test', organizationId: 'org_1' };
  batches = [];
  stored = [];
  (globalThis as { chrome?: unknown }).chrome = {
    storage: { local: localArea(storage) },
  };
  globalThis.fetch = (async (_url: string | URL, init?: RequestInit) => {
    const text = String(init?.body ?? '');
    const ids = (JSON.parse(text) as { entries: Array<{ id: string }> }).entries.map((e) => e.id);
    batches.push(ids);
    if (Buffer.byteLength(text) > LIMIT) {
      return new Response(
        JSON.stringify({
          error: 'payload_too_large',
          message: `The body is larger than ${LIMIT} bytes.`,
          statusCode: 413,
        }),
        { status: 413, headers: { 'content-type': 'application/json' } },
      );
    }
    stored.push(...ids);
    return Response.json({ received: ids.length, stored: ids.length, duplicates: 0 });
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { chrome?: unknown }).chrome;
});

/** n queued log entries of some 70 bytes each; those in `large` carry 4,000 characters (over the limit alone). */
function queueLogs(n: number, large: number[] = []): string[] {
  const ids = Array.from({ length: n }, (_, i) => `log-${i}`);
  const queue: QueuedItem[] = ids.map((id, i) => ({
    id,
    path: '/api/v1/endpoint/log',
    body: {
      id,
      kind: 'prompt',
      text: (large.includes(i) ? 'x' : 'a').repeat(large.includes(i) ? 4_000 : 30),
    },
    attempts: 0,
    nextAt: 0,
    org: 'org_1',
  }));
  storage['queue'] = queue;
  return ids;
}

const sizes = () => batches.map((b) => b.length);

describe('a log batch answered 413 (over the body limit)', () => {
  it('is sent again in halves, and halves of halves, down to the one entry too large alone', async () => {
    const ids = queueLogs(64, [63]);
    await flush();
    assert.deepEqual(sizes(), [64, 32, 32, 16, 16, 8, 8, 4, 4, 2, 2, 1, 1]);
    assert.deepEqual(stored.sort(), ids.slice(0, 63).sort(), 'every other entry stored');
    const s = storage as State;
    assert.deepEqual(s.queue, [], 'nothing left to send again');
    assert.equal(s.tooLarge, 1, 'the entry dropped is counted');
    assert.match(s.lastError ?? '', /larger than 3000 bytes/);
  });

  it('loses nothing when only the batch was too large: two halves, every entry stored', async () => {
    const ids = queueLogs(64);
    await flush();
    assert.deepEqual(sizes(), [64, 32, 32]);
    assert.deepEqual(stored.sort(), ids.sort());
    assert.deepEqual((storage as State).queue, []);
    assert.equal((storage as State).tooLarge, undefined, 'nothing dropped, nothing counted');
  });

  it('keeps counting across runs, and drops only the large entries of a batch', async () => {
    storage['tooLarge'] = 2;
    const ids = queueLogs(10, [2, 7]);
    await flush();
    assert.deepEqual(stored.sort(), ids.filter((_, i) => i !== 2 && i !== 7).sort());
    assert.equal((storage as State).tooLarge, 4);
    assert.deepEqual(sizes(), [10, 5, 5, 3, 2, 3, 2, 2, 1, 2, 1]);
  });
});

describe('splitting a batch the server refused whole', () => {
  it('halves it unless it is one entry or the refused entries are named', () => {
    assert.deepEqual(splitRefused([1, 2, 3, 4, 5], null), [
      [1, 2, 3],
      [4, 5],
    ]);
    assert.deepEqual(splitRefused([1, 2], { error: 'invalid_request', message: 'x' }), [[1], [2]]);
    assert.deepEqual(splitRefused([1], null), []);
    const named = { rejected: [{ index: 1, error: 'invalid_request', message: 'entries[1].kind …' }] };
    assert.deepEqual(splitRefused([1, 2, 3], named), []);
    assert.deepEqual(
      refusedEntries(named).map((r) => r.index),
      [1],
    );
    assert.deepEqual(refusedEntries({ received: 3, stored: 3, duplicates: 0 }), []);
  });
});
