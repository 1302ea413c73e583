import { type TaskMessage, runTask } from './tasks.js';

/** Entry point of a compute worker thread (piscina calls the default export with each task). */
export default function run(message: TaskMessage): unknown {
  return runTask(message);
}
