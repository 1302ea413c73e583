import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Pauses of the machine itself, seen by a process that has nothing else to do: its 5 ms timer is late by
 * more than PAUSE_MS while it used almost no CPU, so it was not running, and neither (on this 2-core VM,
 * measured with a probe in each process) were the server, the upstream or the generator: on a shared VM
 * the host takes the virtual CPUs away. The benchmark prints them beside its p99 figures, since a p99 is
 * set by such pauses rather than by the code whenever they happen often enough.
 */
export interface Pauses {
  count: number;
  longestMs: number;
  totalMs: number;
}

const PAUSE_MS = 10;
const TICK_MS = 5;

export interface PauseProbe {
  /** Pauses since the previous call (or since the start). */
  take(): Promise<Pauses>;
  stop(): void;
}

export async function startPauseProbe(): Promise<PauseProbe> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--probe'], { stdio: 'ignore' });
  // A probe that dies fails the benchmark instead of leaving it waiting for an answer.
  const answer = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the pause probe exited (${code})`));
      child.once('exit', onExit);
      child.once('error', reject);
      child.once('message', (m) => {
        child.off('exit', onExit);
        child.off('error', reject);
        resolve(m as T);
      });
    });
  await answer<string>();
  return {
    take: () => {
      const next = answer<Pauses>();
      child.send('take');
      return next;
    },
    stop: () => child.kill('SIGTERM'),
  };
}

function runProbe(): void {
  let pauses: Pauses = { count: 0, longestMs: 0, totalMs: 0 };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const late = now - last - TICK_MS;
    const usedMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (late > PAUSE_MS && usedMs < late / 4) {
      pauses.count++;
      pauses.totalMs += late;
      pauses.longestMs = Math.max(pauses.longestMs, late);
    }
    last = now;
    lastCpu = cpu;
  }, TICK_MS);
  process.on('message', () => {
    process.send?.(pauses);
    pauses = { count: 0, longestMs: 0, totalMs: 0 };
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.('ready');
}

if (process.argv.includes('--probe')) runProbe();
