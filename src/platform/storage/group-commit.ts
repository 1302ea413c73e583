import type { Db } from './index.js';

export interface GroupCommit {
  /**
   * Runs `work` inside a transaction shared with the other work queued in the same turn of the event loop,
   * and resolves once that transaction has committed. `work` may run twice (see below): it must not have
   * effects outside the database before it resolves.
   */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T>;
}

export interface GroupCommitOptions {
  /** Most pieces of work in one transaction. */
  maxBatch?: number;
  /** Transactions in flight at once: 1 on SQLite (one writer), a few on PostgreSQL. */
  concurrency?: number;
  /** Observes the size of each committed batch (tests and metrics). */
  onCommit?: (size: number) => void;
}

interface Job {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: hot write paths (one vault session per request) pay for BEGIN/COMMIT and for writing the
 * same index pages again and again. Work queued while the event loop reads other requests is committed as
 * one transaction. If the shared transaction fails, each piece reruns alone, so one bad write fails only
 * its own caller and nothing half-written is ever committed.
 */
export function createGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  const maxBatch = options.maxBatch ?? 64;
  const concurrency = options.concurrency ?? 1;
  const queue: Job[] = [];
  let inFlight = 0;
  let scheduled = false;

  async function alone(job: Job): Promise<void> {
    try {
      job.resolve(await db.transaction().execute((trx) => job.work(trx)));
      options.onCommit?.(1);
    } catch (err) {
      job.reject(err);
    }
  }

  async function commit(batch: Job[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0] as Job);
    let results: unknown[];
    try {
      results = await db.transaction().execute(async (trx) => {
        const out: unknown[] = [];
        for (const job of batch) out.push(await job.work(trx));
        return out;
      });
    } catch {
      for (const job of batch) await alone(job);
      return;
    }
    options.onCommit?.(batch.length);
    for (const [i, job] of batch.entries()) job.resolve(results[i]);
  }

  function pump(): void {
    scheduled = false;
    while (inFlight < concurrency && queue.length > 0) {
      inFlight++;
      void commit(queue.splice(0, maxBatch)).finally(() => {
        inFlight--;
        if (queue.length > 0 && !scheduled) schedule();
      });
    }
  }

  // setImmediate runs after the poll phase, so the requests read in the same turn join one transaction.
  function schedule(): void {
    scheduled = true;
    setImmediate(pump);
  }

  return {
    run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled && inFlight < concurrency) schedule();
      });
    },
  };
}
