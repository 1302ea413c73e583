import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the event loop. By default SQLite checkpoints inside whichever commit pushes the WAL
 * past 1,000 pages: that commit copies megabytes back into the database file and waits for two fsyncs while
 * every request of the process waits behind it. The connection that serves requests turns automatic
 * checkpoints off, and a worker thread with its own connection runs a PASSIVE checkpoint (never blocks
 * writers or readers) at a fixed interval instead, so the WAL stays as short as before.
 *
 * The thread is plain JavaScript evaluated from a string: it must not depend on the TypeScript loader the
 * main thread runs under. It loads the same better-sqlite3 build as the main thread.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
let stopped = false;
const tick = () => {
  if (stopped) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: another process is checkpointing, or a writer holds the lock; the next tick retries.
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
let timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', () => {
  stopped = true;
  clearTimeout(timer);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
  db.close();
  parentPort.postMessage('closed');
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export const CHECKPOINT_INTERVAL_MS = 250;

export function startCheckpointer(
  file: string,
  opts: { intervalMs?: number; onFailure: (err: unknown) => void },
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { file, driver, intervalMs: opts.intervalMs ?? CHECKPOINT_INTERVAL_MS },
  });
  // The thread must never keep a process alive that has nothing else to do (CLI commands, tests).
  worker.unref();
  let exited = false;
  let stopping: Promise<void> | null = null;
  worker.once('error', (err) => {
    if (!stopping) opts.onFailure(err);
  });
  worker.once('exit', () => {
    exited = true;
  });
  return {
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        if (exited) return resolve();
        worker.once('exit', () => resolve());
        worker.once('message', () => void worker.terminate());
        worker.postMessage('stop');
      });
      return stopping;
    },
  };
}
