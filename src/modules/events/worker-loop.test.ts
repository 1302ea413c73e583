import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWorkLoop } from './worker-loop.js';

describe('work loop', () => {
  it('runs again at once while there is work, never two rounds at a time, and close waits for the round', async () => {
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    let release: (() => void) | null = null;
    const errors: unknown[] = [];
    const loop = createWorkLoop({
      idleMs: 60_000,
      onError: (e) => errors.push(e),
      run: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        rounds++;
        try {
          if (rounds === 3) throw new Error('boom');
          if (rounds === 4) await new Promise<void>((r) => (release = r));
          return rounds < 4 ? 1 : 0;
        } finally {
          active--;
        }
      },
    });
    loop.start();
    while (release === null) await new Promise((r) => setImmediate(r));
    loop.kick();
    let closed = false;
    const closing = loop.close().then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(closed, false, 'close waits for the round in flight');
    (release as () => void)();
    await closing;
    assert.equal(rounds, 4, 'a failed round does not stop the loop; nothing runs after close');
    assert.equal(maxActive, 1);
    assert.equal(errors.length, 1);
  });

  it('a kick wakes an idle loop', async () => {
    // The loop's own timers are unref'd; this keeps the test process waiting for them.
    const keepAlive = setInterval(() => undefined, 1000);
    let rounds = 0;
    let woke: () => void = () => undefined;
    const second = new Promise<void>((r) => (woke = r));
    const loop = createWorkLoop({
      idleMs: 60_000,
      onError: () => undefined,
      run: async () => {
        rounds++;
        if (rounds === 2) woke();
        return 0;
      },
    });
    loop.start();
    while (rounds < 1) await new Promise((r) => setImmediate(r));
    loop.kick();
    await second;
    await loop.close();
    clearInterval(keepAlive);
    assert.equal(rounds, 2);
  });

  it('kicks that keep coming do not put the round off', async (t) => {
    // The pools kick at every send that ends; each kick used to re-arm the 2 ms timer, so a steady stream of
    // ends closer than that kept the loop from ever taking new work.
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    let rounds = 0;
    const loop = createWorkLoop({
      idleMs: 60_000,
      kickDelayMs: 2,
      onError: () => undefined,
      run: async () => {
        rounds++;
        return 0;
      },
    });
    loop.start();
    t.mock.timers.tick(0);
    await new Promise((r) => setImmediate(r));
    assert.equal(rounds, 1);
    for (let i = 0; i < 10; i++) {
      loop.kick();
      t.mock.timers.tick(1);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(rounds >= 2, `rounds while kicked every 1 ms: ${rounds}`);
    await loop.close();
  });
});
