import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

// On a shared machine wall time measures the load as much as the code. The CPU time of the thread that ran
// the code does not: Linux keeps it per thread in nanoseconds (/proc/self/task/<tid>/schedstat, first
// field); the main thread's tid is the process id. Elsewhere process.cpuUsage() (all threads of the
// process, microseconds) is the fallback, which also counts the garbage collector's helper threads.
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
let perThread = true;
try {
  readFileSync(schedstat, 'utf8');
} catch {
  perThread = false;
}

/** What `cpuMs` measures, for the header of a bench. */
export const CPU_CLOCK = perThread ? 'main-thread CPU' : 'process CPU';

/** Milliseconds of CPU used so far by the main thread (or the process, see CPU_CLOCK). */
export function cpuMs(): number {
  if (perThread) return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Wall and CPU milliseconds of one synchronous call. */
export function timed(f: () => unknown): { wall: number; cpu: number } {
  const c0 = cpuMs();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  return { wall, cpu: cpuMs() - c0 };
}

/** The 1, 5 and 15 minute load averages, to print beside every figure. */
export function load(): string {
  return `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
}
