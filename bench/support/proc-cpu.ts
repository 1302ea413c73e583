import { readFileSync, readdirSync } from 'node:fs';

// CPU time of other processes (the server and its cluster workers, the fake upstream), from Linux's
// /proc/<pid>/stat: user + system time of every thread, in clock ticks. Under load, CPU per request is the
// figure that measures the code; wall-clock latency measures the machine as much.
const TICK_MS = 10; // USER_HZ is 100 on every Linux the benches run on

/** User and system milliseconds of a process or a thread (`/proc/<pid>/stat`, `/proc/<pid>/task/<tid>/stat`). */
export function statCpuMs(statPath: string): { user: number; system: number } {
  try {
    const stat = readFileSync(statPath, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime (fields 14 and 15 of the line)
    return { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS };
  } catch {
    return { user: 0, system: 0 }; // exited
  }
}

/** The child processes of a process alive now (cluster workers), by /proc's children lists. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(' ').map(Number));
    }
  } catch {
    // exited
  }
  return out;
}

/** Milliseconds of CPU used so far by a process and all its descendants alive now (cluster workers). */
export function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const own = statCpuMs(`/proc/${pid}/stat`);
  let ms = own.user + own.system;
  for (const child of childrenOf(pid)) ms += treeCpuMs(child);
  return ms;
}

/** Milliseconds of CPU used so far by this process (every thread). */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export interface CpuSplit {
  server: number;
  upstream: number;
  generator: number;
}

/** CPU per request of each party over a stretch of load: call before, then the result after with the count. */
export function cpuMeter(serverPid: number | undefined, upstreamPid: number | undefined) {
  const start: CpuSplit = {
    server: treeCpuMs(serverPid),
    upstream: treeCpuMs(upstreamPid),
    generator: ownCpuMs(),
  };
  return {
    /** Milliseconds of CPU per request since the meter started. */
    perRequest(requests: number): CpuSplit & { total: number } {
      const n = Math.max(1, requests);
      const server = (treeCpuMs(serverPid) - start.server) / n;
      const upstream = (treeCpuMs(upstreamPid) - start.upstream) / n;
      const generator = (ownCpuMs() - start.generator) / n;
      return { server, upstream, generator, total: server + upstream + generator };
    },
  };
}

/** "CPU per request: server 0.84 ms, upstream 0.12, generator 0.20, all 1.16 ms". */
export function cpuText(c: CpuSplit & { total: number }): string {
  return `CPU per request: server ${c.server.toFixed(2)} ms, upstream ${c.upstream.toFixed(2)}, generator ${c.generator.toFixed(2)}, all ${c.total.toFixed(2)} ms`;
}
