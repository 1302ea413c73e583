import type { PooledTask } from './compute.js';
import { runTask } from './tasks.js';

/** Entry point of a compute worker thread (piscina calls the default export with each task). */
export default function run(message: PooledTask): unknown {
  // The task has left the queue: its time budget counts from here (compute.ts).
  message.started.postMessage(null);
  message.started.close();
  return runTask(message);
}
