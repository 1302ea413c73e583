import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

// Read before anything is pinned: once this process is pinned, availableParallelism() counts only its CPU.
const CPUS = availableParallelism();

/**
 * Pins processes to CPUs with taskset (all threads of each, -a). A throughput figure on a small machine is
 * otherwise mostly a measure of how often the scheduler hands the server's core to the load generator or
 * the fake upstream, which in production are other machines. False when taskset or a second CPU is missing.
 */
export function pinProcesses(pins: Array<{ pid: number | undefined; cpus: string }>): boolean {
  if (process.env['BENCH_PIN'] === '0' || CPUS < 2) return false;
  for (const { pid, cpus } of pins) {
    if (pid === undefined) return false;
    const r = spawnSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
    if (r.error || r.status !== 0) return false;
  }
  return true;
}

/** Every CPU again, for the processes pinned before. */
export function unpinProcesses(pids: Array<number | undefined>): void {
  const all = `0-${CPUS - 1}`;
  for (const pid of pids) {
    if (pid !== undefined) spawnSync('taskset', ['-a', '-cp', all, String(pid)], { stdio: 'ignore' });
  }
}
