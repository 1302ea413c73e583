import { Pool } from 'undici';

export interface PacedFigures {
  offered: number;
  carried: number;
  p50: number;
  p99: number;
  failed: number;
}

/**
 * Open-loop load at an even pace: request i is due at start + i / rate, whatever happened to the ones
 * before it, and its latency counts from when it was due, so a stalled server shows in p99 instead of
 * quietly lowering the rate (coordinated omission). autocannon's overallRate sends each second's quota in
 * a burst at the start of the second, which measures how a burst queues rather than a steady rate.
 */
export async function pacedLoad(opts: {
  url: string;
  headers: Record<string, string>;
  body: () => string;
  rate: number;
  seconds: number;
  connections?: number;
}): Promise<PacedFigures> {
  const target = new URL(opts.url);
  const pool = new Pool(target.origin, { connections: opts.connections ?? 64, pipelining: 1 });
  const latencies: number[] = [];
  let failed = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const intervalMs = 1000 / opts.rate;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();

  const send = async (due: number) => {
    try {
      const res = await pool.request({
        path: target.pathname + target.search,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: opts.body(),
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
      inFlight.push(send(started + next * intervalMs));
      next++;
    }
    // setTimeout(0) yields to the responses; its granularity (~1 ms) is why due times, not send times, count.
    await new Promise((r) => setTimeout(r, 0));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    offered: opts.rate,
    carried: Math.round(latencies.length / elapsed),
    p50: Number(at(0.5).toFixed(2)),
    p99: Number(at(0.99).toFixed(2)),
    failed,
  };
}
