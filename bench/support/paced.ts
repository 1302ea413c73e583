import { Pool } from 'undici';

export interface PacedFigures {
  offered: number;
  carried: number;
  p50: number;
  p99: number;
  failed: number;
  /** Every completed request's latency in ms, ascending, for figures pooled over several windows. */
  latencies: number[];
}

/** The value at fraction p of an ascending list. */
export function percentileOf(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/**
 * Open-loop load at an even pace: request i is due at start + i / rate, whatever happened to the ones
 * before it, and its latency counts from when it was due, so a stalled server shows in p99 instead of
 * quietly lowering the rate (coordinated omission). autocannon's overallRate sends each second's quota in
 * a burst at the start of the second, which measures how a burst queues rather than a steady rate.
 * Every body is built and encoded before the clock starts: the generator shares a CPU with the upstream,
 * and 5 KB of JSON built per request there adds its own pauses to the latencies counted against the server.
 */
export async function pacedLoad(opts: {
  url: string;
  headers: Record<string, string>;
  body: () => string;
  rate: number;
  seconds: number;
  connections?: number;
  /** Awaited after the bodies are built, right before the clock starts. */
  beforeClock?: () => Promise<unknown>;
}): Promise<PacedFigures> {
  const target = new URL(opts.url);
  const pool = new Pool(target.origin, { connections: opts.connections ?? 64, pipelining: 1 });
  const latencies: number[] = [];
  let failed = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const bodies = Array.from({ length: total }, () => Buffer.from(opts.body()));
  const headers = { 'content-type': 'application/json', ...opts.headers };
  await opts.beforeClock?.();
  const intervalMs = 1000 / opts.rate;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();

  const send = async (body: Buffer, due: number) => {
    try {
      const res = await pool.request({
        path: target.pathname + target.search,
        method: 'POST',
        headers,
        body,
      });
      await res.body.text();
      if (res.statusCode !== 200) failed++;
      latencies.push(performance.now() - due);
    } catch {
      failed++;
    }
  };

  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && started + next * intervalMs <= now) {
      inFlight.push(send(bodies[next]!, started + next * intervalMs));
      next++;
    }
    // setTimeout(0) yields to the responses; its granularity (~1 ms) is why due times, not send times, count.
    await new Promise((r) => setTimeout(r, 0));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    offered: opts.rate,
    carried: Math.round(latencies.length / elapsed),
    p50: Number(percentileOf(latencies, 0.5).toFixed(2)),
    p99: Number(percentileOf(latencies, 0.99).toFixed(2)),
    failed,
    latencies,
  };
}
