import { Piscina } from 'piscina';
import { AppError } from '../errors/index.js';
import { type TaskArgs, type TaskName, type TaskResult, runTask } from './tasks.js';

/**
 * Runs the engines for request handlers without holding the event loop (issue #15). An input below
 * `minChars` runs in-process: engines are linear, so it takes a few milliseconds, and a thread hop would
 * add latency the gateway cannot spare. A larger one runs in a worker thread under a time budget; past the
 * budget the worker is terminated (piscina replaces it) and the request fails with
 * `analysis_budget_exceeded` (422). `/api/health` and every other request keep being served meanwhile.
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
  /** Longest a pooled task may take, queue wait included, before it is stopped. */
  budgetMs: number;
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

export function budgetExceeded(budgetMs: number): AppError {
  return new AppError(
    'analysis_budget_exceeded',
    `Analysing this input took longer than the ${budgetMs} ms budget; send shorter or fewer texts.`,
  );
}

// The sources run through tsx (bin/parapet): a worker thread needs the loader too, which it does not
// inherit when the parent registered it through the API rather than a command-line flag.
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
const workerExecArgv = (): string[] => {
  if (!workerUrl.pathname.endsWith('.ts')) return process.execArgv;
  const inherited = process.execArgv.join(' ');
  return /--(import|loader|require)[= ]\S*tsx/.test(inherited)
    ? process.execArgv
    : [...process.execArgv, '--import', import.meta.resolve('tsx')];
};

export function createCompute(options: ComputeOptions): Compute {
  if (options.threads === 0) return inlineCompute;
  const pool = new Piscina({
    filename: workerUrl.href,
    minThreads: options.warm ? 1 : 0,
    maxThreads: options.threads,
    maxQueue: options.maxQueue ?? options.threads * 64,
    idleTimeout: 60_000,
    execArgv: workerExecArgv(),
  });
  let pending = 0;
  let completed = 0;
  return {
    async run(task, args, size) {
      if (size < options.minChars) return runTask({ task, args }) as never;
      if (pool.queueSize >= pool.options.maxQueue) {
        throw new AppError('service_unavailable', 'The analysis workers are busy; retry in a few seconds.', {
          retryAfter: 5,
        });
      }
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), options.budgetMs);
      pending++;
      try {
        return (await pool.run({ task, args }, { signal: abort.signal })) as never;
      } catch (err) {
        if (abort.signal.aborted) throw budgetExceeded(options.budgetMs);
        throw err;
      } finally {
        clearTimeout(timer);
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
