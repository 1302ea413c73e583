export {
  type Compute,
  type ComputeOptions,
  budgetExceeded,
  createCompute,
  inlineCompute,
} from './compute.js';
export type { TaskName } from './tasks.js';
