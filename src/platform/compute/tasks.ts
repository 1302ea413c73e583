import {
  type DetectionOptions,
  analyze,
  analyzeAndSanitize,
  analyzeEach,
} from '../../engines/detection/index.js';
import { type DetectOptions, detectEntities } from '../../engines/dlp/index.js';
import { type CheckOptions, checkClaim } from '../../engines/hallucination/index.js';

/**
 * The CPU-heavy engine calls a request may make, by name: the same functions run in-process for small
 * inputs and in a worker thread for large ones, so both paths give byte-identical results.
 */
export const TASKS = {
  analyze: (text: string, options?: DetectionOptions) => analyze(text, options),
  /** The texts of one request (the proxies' injection check): one trip, up to the first that blocks. */
  analyzeEach: (items: Array<{ text: string; options?: DetectionOptions }>) => analyzeEach(items),
  analyzeAndSanitize: (text: string, options?: DetectionOptions) => analyzeAndSanitize(text, options),
  /** One list of entities per text; the texts of one request share a single trip to a worker. */
  detectEntities: (texts: string[], options?: DetectOptions) => texts.map((t) => detectEntities(t, options)),
  checkClaim: (claim: string, sources: string[], options?: CheckOptions) =>
    checkClaim(claim, sources, options),
};

export type TaskName = keyof typeof TASKS;
export type TaskArgs<K extends TaskName> = Parameters<(typeof TASKS)[K]>;
export type TaskResult<K extends TaskName> = ReturnType<(typeof TASKS)[K]>;

export interface TaskMessage {
  task: TaskName;
  args: unknown[];
}

export function runTask({ task, args }: TaskMessage): unknown {
  const fn = TASKS[task] as (...a: unknown[]) => unknown;
  return fn(...args);
}
