import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AppError } from '../errors/index.js';
import { type Compute, createCompute } from './compute.js';

const slowWorker = new URL('../../../test/support/slow-compute-worker.ts', import.meta.url);
const pools: Compute[] = [];
after(async () => {
  for (const p of pools) await p.close();
});

/** One thread, so that jobs queue behind each other; every job goes to it (minChars 0). */
function onePool(budgetMs: number, queueWaitMs: number): Compute {
  const pool = createCompute({
    threads: 1,
    budgetMs,
    queueWaitMs,
    minChars: 0,
    worker: slowWorker,
    warm: true,
  });
  pools.push(pool);
  return pool;
}

// The slow worker's job sleeps args[0] ms; the task name is not read by it.
const job = (pool: Compute, ms: number) => pool.run('analyze', [ms as never], 1) as Promise<unknown>;
const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ ok: v }),
    (err) =>
      err instanceof AppError
        ? { error: err.code, status: err.statusCode, retryAfter: err.retryAfter }
        : { thrown: String(err) },
  );

describe('compute pool budget', () => {
  it("counts a job's own run time, not the time it queued behind another organization's slow jobs", async () => {
    // Two jobs of 60% of the budget each run one after the other: the third, a quick one, waits 120% of the
    // budget in the queue, then runs in no time. Counted from submission, its budget ran out while queued.
    const pool = onePool(1000, 30_000);
    const results = await Promise.all([job(pool, 600), job(pool, 600), job(pool, 1)].map(outcome));
    assert.deepEqual(results, [{ ok: 600 }, { ok: 600 }, { ok: 1 }]);
  });

  it('still stops a job that runs past its budget with 422 analysis_budget_exceeded', async () => {
    const pool = onePool(300, 30_000);
    const [slow, next] = await Promise.all([job(pool, 5000), job(pool, 1)].map(outcome));
    assert.deepEqual(slow, { error: 'analysis_budget_exceeded', status: 422, retryAfter: undefined });
    assert.deepEqual(next, { ok: 1 }, 'the job queued behind it runs on a fresh thread');
  });

  it('answers a job that waits for a thread past the queue bound with 503 and Retry-After, not 422', async () => {
    const pool = onePool(30_000, 300);
    // Starting the thread (loading the worker) is queue wait too: the job waits until the thread is up.
    for (let i = 0; !('ok' in (await outcome(job(pool, 1)))); i++) assert.ok(i < 50, 'a thread starts');
    const [slow, queued] = await Promise.all([job(pool, 1500), job(pool, 1)].map(outcome));
    assert.deepEqual(slow, { ok: 1500 }, 'the running job keeps its budget');
    assert.deepEqual(queued, { error: 'service_unavailable', status: 503, retryAfter: 5 });
  });
});
