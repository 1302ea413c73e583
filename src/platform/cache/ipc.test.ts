import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock/index.js';
import {
  type Cache,
  createIpcCacheClient,
  createMemoryCache,
  type IpcChannel,
  serveIpcCache,
} from './index.js';

/** Two ends of a pipe that, like process IPC, deliver later and serialise every message. */
function pipe(): [IpcChannel, IpcChannel, { sent: number }] {
  const handlers: [Set<(m: unknown) => void>, Set<(m: unknown) => void>] = [new Set(), new Set()];
  const stats = { sent: 0 };
  const end = (mine: 0 | 1): IpcChannel => ({
    send(message) {
      stats.sent++;
      const copy = JSON.parse(JSON.stringify(message));
      setImmediate(() => {
        for (const h of handlers[mine === 0 ? 1 : 0]) h(copy);
      });
    },
    listen(handler) {
      handlers[mine].add(handler);
      return () => handlers[mine].delete(handler);
    },
  });
  return [end(0), end(1), stats];
}

function setup(primaryCache: Cache = createMemoryCache(new ManualClock())) {
  const [a1, b1, s1] = pipe();
  const [a2, b2, s2] = pipe();
  serveIpcCache(primaryCache, b1);
  serveIpcCache(primaryCache, b2);
  return { one: createIpcCacheClient(a1), two: createIpcCacheClient(a2), s1, s2, primaryCache };
}

describe('cache shared with the primary process over IPC', () => {
  it('keeps one exact counter for all workers', async () => {
    const { one, two } = setup();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).incr('rl:x', 1, 60_000)),
    );
    assert.deepEqual(
      [...results].sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.equal(await one.get('rl:x'), '50');
  });

  it('sends the calls of one turn as one message each way', async () => {
    const { one, s1 } = setup();
    await Promise.all([
      one.incr('a', 1, 1000),
      one.incr('b', 2, 1000),
      one.get('a'),
      one.set('c', 'v', 1000),
    ]);
    assert.equal(s1.sent, 2);
  });

  it('behaves like the memory cache for get, set, setIfAbsent and del', async () => {
    const { one, two } = setup();
    assert.equal(await one.get('k'), null);
    await one.set('k', 'v1', 10_000);
    assert.equal(await two.get('k'), 'v1');
    assert.equal(await two.setIfAbsent('k', 'v2', 10_000), false);
    assert.equal(await two.setIfAbsent('k2', 'v2', 10_000), true);
    assert.equal(await one.get('k2'), 'v2');
    await two.del('k');
    assert.equal(await one.get('k'), null);
    assert.equal(await one.ping(), true);
  });

  it('passes a failure of the primary cache to the caller', async () => {
    const broken = createMemoryCache(new ManualClock());
    broken.incr = async () => {
      throw new Error('out of memory');
    };
    const { one } = setup(broken);
    await assert.rejects(one.incr('x', 1, 1000), /shared cache: out of memory/);
    assert.equal(await one.get('x'), null, 'other calls still work');
  });

  it('fails a call the primary never answers, after the timeout', async () => {
    const [a] = pipe();
    const lonely = createIpcCacheClient(a, { timeoutMs: 50 });
    await assert.rejects(lonely.incr('x', 1, 1000), /did not answer/);
    assert.equal(await lonely.ping(), false);
  });

  it('fails at once, not at the timeout, when the message cannot be sent', async () => {
    const gone: IpcChannel = {
      send(_message, onError) {
        setImmediate(() => onError?.(new Error('channel closed')));
      },
      listen: () => () => undefined,
    };
    const client = createIpcCacheClient(gone, { timeoutMs: 60_000 });
    // Waiting for the timeout would reject with "did not answer" instead.
    await assert.rejects(client.incr('x', 1, 1000), /channel closed/);
  });
});
