import type { PooledTask } from '../../src/platform/compute/compute.js';

/**
 * A worker for src/platform/compute/compute.test.ts speaking worker.ts's protocol, whose job sleeps `args[0]` ms in its thread: a
 * deliberately slow job, standing for one organization's large input.
 */
export default function run(message: PooledTask): unknown {
  // Optional: the pool before 2026-11-28 sent no port (the test's proof that it fails there).
  message.started?.postMessage(null);
  message.started?.close();
  const ms = message.args[0] as number;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return ms;
}
