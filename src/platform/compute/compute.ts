import { Piscina } from 'piscina';
import { AppError } from '../errors/index.js';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { type TaskArgs, type TaskMessage, type TaskName, type TaskResult, runTask } from './tasks.js';

/**
 * Runs the engines for request handlers without holding the event loop (issue #15). An input below
 * `minChars` runs in-process: engines are linear, so it takes a few milliseconds, and a thread hop would
 * add latency the gateway cannot spare. A larger one runs in a worker thread under a time budget counted from
 * when a thread starts it; past the budget the worker is terminated (piscina replaces it) and the request
 * fails with `analysis_budget_exceeded` (422). Time spent queued behind other requests (another
 * organization's slow input) is not the input's fault and is bounded apart: a task still queued after
 * `queueWaitMs` is dropped and the request answers 503 with Retry-After. `/api/health` and every other
 * request keep being served meanwhile.
 */
export interface Compute {
  run<K extends TaskName>(task: K, args: TaskArgs<K>, size: number): Promise<TaskResult<K>>;
  /** Tasks sent to worker threads and not finished yet (queued included), and those finished. */
  stats(): { threads: number; pending: number; completed: number };
  close(): Promise<void>;
}

export interface ComputeOptions {
  /** Worker threads; 0 runs everything in-process (no budget). */
  threads: number;
  /** Longest a pooled task may run in its thread (queue wait not included) before it is stopped: 422. */
  budgetMs: number;
  /** Longest a pooled task may wait for a thread before it is dropped: 503 with Retry-After. */
  queueWaitMs?: number;
  /** Another worker module, speaking the same protocol as worker.ts (tests: a deliberately slow job). */
  worker?: URL;
  /** Inputs of at least this many characters go to a worker. */
  minChars: number;
  /** Tasks waiting for a thread before new ones are refused with 503. */
  maxQueue?: number;
  /** Start one thread now instead of at the first large input (loading the engines takes a moment). */
  warm?: boolean;
}

/** In-process only: the default of services built without a pool (unit tests, the CLI). */
export const inlineCompute: Compute = {
  async run(task, args) {
    return runTask({ task, args }) as never;
  },
  stats: () => ({ threads: 0, pending: 0, completed: 0 }),
  async close() {},
};

/** What a worker receives: the task, and a port on which it says it has started (then the budget runs). */
export interface PooledTask extends TaskMessage {
  started: MessagePort;
}

const DEFAULT_QUEUE_WAIT_MS = 30_000;
const QUEUE_RETRY_AFTER_S = 5;

function workersBusy(message: string): AppError {
  return new AppError('service_unavailable', message, { retryAfter: QUEUE_RETRY_AFTER_S });
}

export function budgetExceeded(budgetMs: number): AppError {
  return new AppError(
    'analysis_budget_exceeded',
    `Analysing this input took longer than the ${budgetMs} ms budget; send shorter or fewer texts.`,
  );
}

// The sources run through tsx (bin/parapet): a worker thread needs the loader too, which it does not
// inherit when the parent registered it through the API rather than a command-line flag.
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
const workerExecArgv = (url: URL): string[] => {
  if (!url.pathname.endsWith('.ts')) return process.execArgv;
  const inherited = process.execArgv.join(' ');
  return /--(import|loader|require)[= ]\S*tsx/.test(inherited)
    ? process.execArgv
    : [...process.execArgv, '--import', import.meta.resolve('tsx')];
};

export function createCompute(options: ComputeOptions): Compute {
  if (options.threads === 0) return inlineCompute;
  const worker = options.worker ?? workerUrl;
  const queueWaitMs = options.queueWaitMs ?? DEFAULT_QUEUE_WAIT_MS;
  const pool = new Piscina({
    filename: worker.href,
    minThreads: options.warm ? 1 : 0,
    maxThreads: options.threads,
    maxQueue: options.maxQueue ?? options.threads * 64,
    idleTimeout: 60_000,
    execArgv: workerExecArgv(worker),
  });
  let pending = 0;
  let completed = 0;
  return {
    async run(task, args, size) {
      if (size < options.minChars) return runTask({ task, args }) as never;
      if (pool.queueSize >= pool.options.maxQueue) {
        throw workersBusy('The analysis workers are busy; retry in a few seconds.');
      }
      const abort = new AbortController();
      let stopped: 'queue' | 'budget' | undefined;
      let settled = false;
      let budgetTimer: NodeJS.Timeout | undefined;
      const stop = (why: 'queue' | 'budget') => {
        stopped = why;
        abort.abort();
      };
      const queueTimer = setTimeout(() => stop('queue'), queueWaitMs);
      // The budget is the input's own run time: it starts when a thread takes the task, not when it queued.
      const { port1, port2 } = new MessageChannel();
      port1.once('message', () => {
        if (settled) return;
        clearTimeout(queueTimer);
        budgetTimer = setTimeout(() => stop('budget'), options.budgetMs);
      });
      pending++;
      try {
        const message: PooledTask = { task, args, started: port2 };
        return (await pool.run(message, { signal: abort.signal, transferList: [port2] })) as never;
      } catch (err) {
        if (stopped === 'budget') throw budgetExceeded(options.budgetMs);
        if (stopped === 'queue') {
          throw workersBusy(
            `The analysis workers stayed busy with other requests for ${queueWaitMs} ms; retry in a few seconds.`,
          );
        }
        throw err;
      } finally {
        settled = true;
        clearTimeout(queueTimer);
        clearTimeout(budgetTimer);
        port1.close();
        pending--;
        completed++;
      }
    },
    stats: () => ({ threads: pool.threads.length, pending, completed }),
    async close() {
      await pool.close({ force: true });
    },
  };
}
