import { loadavg } from 'node:os';

// On a shared machine wall time measures the load as much as the code; CPU time does not. Node 20 has no
// per-thread clock (process.threadCpuUsage came later) and Linux's per-thread schedstat, read by the
// thread itself, moves in scheduler ticks (4 ms), too coarse for one call. process.cpuUsage() is exact
// (getrusage) and counts every thread of the process: the engine's and the garbage collector's helpers,
// which are part of what a call costs.
export const CPU_CLOCK = 'process CPU';

/** Milliseconds of CPU used so far by this process (every thread). */
export function cpuMs(): number {
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
