import type { Db } from './index.js';
import { writeTransactions } from './raw.js';

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
 * one transaction. If one piece's own write fails, the transaction rolls back, that piece's caller gets the
 * error and the others commit again without it: one bad write fails only its own caller and nothing
 * half-written is ever committed. A failure of the transaction itself (BEGIN, COMMIT) fails the batch.
 *
 * A piece must let its errors propagate: one that catches a failed statement and goes on would, on
 * PostgreSQL, leave the shared transaction aborted and make COMMIT roll back every piece.
 */
export function createGroupCommit(db: Db, options: GroupCommitOptions = {}): GroupCommit {
  const maxBatch = options.maxBatch ?? 64;
  const concurrency = options.concurrency ?? 1;
  const queue: Job[] = [];
  let inFlight = 0;
  let scheduled = false;
  // SQLite: BEGIN and COMMIT as cached statements, the lock waited for asynchronously (raw.ts);
  // PostgreSQL: Kysely's transactions.
  const transaction = writeTransactions(db);

  const observe = (size: number) => {
    try {
      options.onCommit?.(size);
    } catch {
      // An observer must not keep the callers' promises from settling.
    }
  };

  async function alone(job: Job): Promise<void> {
    try {
      job.resolve(await transaction((trx) => job.work(trx)));
      observe(1);
    } catch (err) {
      job.reject(err);
    }
  }

  async function commit(batch: Job[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0] as Job);
    let failed: Job | undefined;
    let results: unknown[];
    try {
      results = await transaction(async (trx) => {
        const out: unknown[] = [];
        for (const job of batch) {
          try {
            out.push(await job.work(trx));
          } catch (err) {
            failed = job;
            throw err;
          }
        }
        return out;
      });
    } catch (err) {
      if (!failed) {
        // BEGIN or COMMIT itself failed (busy database, lost connection): every job shares that fate, and
        // running them one by one would only repeat it, each waiting out the busy timeout.
        for (const job of batch) job.reject(err);
        return;
      }
      // One job's own write failed: it alone is refused; the others commit without it.
      failed.reject(err);
      const rest = batch.filter((job) => job !== failed);
      if (rest.length > 0) await commit(rest);
      return;
    }
    observe(batch.length);
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
