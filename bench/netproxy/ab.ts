/**
 * Interleaved A/B of two checkouts of the network proxy with personal data: each round starts the real
 * server of one checkout and then of the other (order flipped every round, so both see the same load),
 * against one fake upstream (bench/gateway/upstream.ts), and prints for each: the server's CPU and garbage
 * per request over a steady paced window (the figures load distorts least), and the stream first byte
 * added over a direct call (sequential, interleaved with direct calls; a wall figure, so read it on a quiet
 * machine only) with the server's CPU per streamed request over that phase. Then the median of each
 * figure over the rounds. Asserts nothing.
 *
 *   tsx bench/netproxy/ab.ts <root of checkout A> [rounds]   (RATE, SECONDS, FIRST change the sample)
 *
 * A is the other checkout (`git archive <commit> | tar -x -C DIR` and a node_modules link), B this one.
 */
import { Agent } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gcFigures } from '../support/gc-trace.js';
import { chatBody, timedPost } from '../support/netproxy-load.js';
import { pacedLoad, percentileOf } from '../support/paced.js';
import { startUpstream } from '../support/upstream.js';
import { cpuMeter } from '../support/proc-cpu.js';
import { startBenchServer } from '../support/server.js';

if (process.argv[2] === undefined)
  throw new Error('usage: tsx bench/netproxy/ab.ts <root of checkout A> [rounds]');
const here = fileURLToPath(new URL('../..', import.meta.url));
const roots = [resolve(process.argv[2]), here];
const ROUNDS = Number(process.argv[3] ?? 4);
const RATE = Number(process.env['RATE'] ?? 300);
const SECONDS = Number(process.env['SECONDS'] ?? 6);
// Sequential streamed requests for the first-byte figure (each proxied one beside a direct one).
const FIRST = Number(process.env['FIRST'] ?? 300);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** The bench's body with personal data. */
const body = (stream = false) => chatBody(true, stream);
const firstByte = async (url: string, headers: Record<string, string>, payload: string) =>
  (await timedPost(agent, url, headers, payload)).first;
const median = (xs: number[]) =>
  percentileOf(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

const upstream = await startUpstream();
const figures = roots.map(() => ({
  cpu: [] as number[],
  garbage: [] as number[],
  promoted: [] as number[],
  first: [] as number[],
  streamCpu: [] as number[],
}));
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < roots.length; k++) {
      const which = r % 2 === 0 ? k : roots.length - 1 - k;
      const server = await startBenchServer(
        { PARAPET_PROVIDER_OPENAI_BASE_URL: `${upstream.url}/v1`, PARAPET_COMPUTE_THREADS: '0' },
        ['--trace-gc'],
        roots[which],
      );
      try {
        const url = `${server.proxyUrl}/proxy/openai/v1/chat/completions`;
        const headers = { authorization: 'Bearer sk-bench', 'x-service-key': server.al };
        await pacedLoad({ url, headers, body: () => body(), rate: RATE, seconds: 3 });
        const from = server.output().length;
        let meter: ReturnType<typeof cpuMeter> | undefined;
        const w = await pacedLoad({
          url,
          headers,
          body: () => body(),
          rate: RATE,
          seconds: SECONDS,
          beforeClock: async () => {
            meter = cpuMeter(server.pid, upstream.child.pid);
          },
        });
        const cpu = meter!.perRequest(w.latencies.length + w.failed);
        const gc = gcFigures(server.output().slice(from), w.carried, 1);
        const d: number[] = [];
        const p: number[] = [];
        // The direct calls do not reach the server: its CPU over this phase is the proxied streams'.
        const streamMeter = cpuMeter(server.pid, upstream.child.pid);
        for (let i = 0; i < FIRST; i++) {
          const payload = body(true);
          d.push(
            await firstByte(
              `${upstream.url}/v1/chat/completions`,
              { authorization: 'Bearer sk-bench' },
              payload,
            ),
          );
          p.push(await firstByte(url, headers, payload));
        }
        const added = median(p) - median(d);
        const streamCpu = streamMeter.perRequest(FIRST).server;
        const f = figures[which]!;
        f.streamCpu.push(streamCpu);
        f.cpu.push(cpu.server);
        f.garbage.push((gc?.bytesPerRequest ?? 0) / 1024);
        f.promoted.push((gc?.promotedPerRequest ?? 0) / 1024);
        f.first.push(added);
        console.log(
          `round ${r + 1} ${which === 0 ? 'A' : 'B'}: server CPU ${cpu.server.toFixed(3)} ms/request (upstream ${cpu.upstream.toFixed(2)}), garbage ${((gc?.bytesPerRequest ?? 0) / 1024).toFixed(1)} KB/request (promoted ${((gc?.promotedPerRequest ?? 0) / 1024).toFixed(2)} KB), carried ${w.carried}/s failed ${w.failed}; stream first byte added p50 ${added.toFixed(3)} ms (server CPU ${streamCpu.toFixed(3)} ms per stream) [load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores]`,
        );
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  upstream.child.kill('SIGTERM');
  agent.destroy();
}
for (const [i, f] of figures.entries()) {
  console.log(
    `${i === 0 ? 'A' : 'B'} (${roots[i]}), median of ${ROUNDS}: server CPU ${median(f.cpu).toFixed(3)} ms/request, garbage ${median(f.garbage).toFixed(1)} KB/request (promoted ${median(f.promoted).toFixed(2)} KB), stream first byte added p50 ${median(f.first).toFixed(3)} ms, server CPU ${median(f.streamCpu).toFixed(3)} ms per stream`,
  );
}
