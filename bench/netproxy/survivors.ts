/**
 * Where the network proxy's garbage that outlives the young generation comes from: what fills the old
 * generation and brings the full collections a p99 sees. Starts the real server (one process) with V8's
 * sampling heap profiler (heap-sampler.mjs), sends a paced load with personal data, and samples two
 * windows of the same length: every allocation, then only the objects that survived a scavenge (live, or
 * freed by a full collection). Prints, per allocating function, the bytes of each and the share that
 * survived: a high share means objects kept past their request (caches, weak maps, timers), not the
 * in-flight requests a scavenge happens to meet. Sampled, so small figures are noisy. Asserts nothing.
 *
 *   tsx bench/netproxy/survivors.ts [root of another checkout]   (RATE, SECONDS, TOP change the sample)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatBody } from '../support/netproxy-load.js';
import { pacedLoad } from '../support/paced.js';
import { startBenchServer } from '../support/server.js';
import { startUpstream } from '../support/upstream.js';

const RATE = Number(process.env['RATE'] ?? 150);
const SECONDS = Number(process.env['SECONDS'] ?? 8);
const TOP = Number(process.env['TOP'] ?? 40);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

/** Sampled bytes per allocating function (native allocations named after the script function calling them). */
function bytesBySite(file: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (n: Node, caller: string) => {
    const f = n.callFrame;
    const here = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    const key = f.url ? here : `${here.trim()} in ${caller}`;
    out.set(key, (out.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, f.url ? here : caller);
  };
  walk((JSON.parse(readFileSync(file, 'utf8')) as { head: Node }).head, '');
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'parapet-survivors-'));
const sampler = fileURLToPath(new URL('./heap-sampler.mjs', import.meta.url));
const upstream = await startUpstream();
const server = await startBenchServer(
  {
    PARAPET_PROVIDER_OPENAI_BASE_URL: `${upstream.url}/v1`,
    PARAPET_COMPUTE_THREADS: '0',
    PARAPET_HEAP_SAMPLER_DIR: dir,
  },
  ['--import', sampler],
  process.argv[2],
);
try {
  const url = `${server.proxyUrl}/proxy/openai/v1/chat/completions`;
  const headers = { authorization: 'Bearer sk-bench', 'x-service-key': server.al };
  const pid = server.pid as number;
  await pacedLoad({ url, headers, body: () => chatBody(true), rate: RATE, seconds: 4 });
  const carried: Record<string, number> = {};
  for (const mode of ['all', 'survivors']) {
    writeFileSync(join(dir, 'mode'), mode);
    const w = await pacedLoad({
      url,
      headers,
      body: () => chatBody(true),
      rate: RATE,
      seconds: SECONDS,
      beforeClock: async () => {
        process.kill(pid, 'SIGUSR1');
      },
    });
    process.kill(pid, 'SIGUSR2');
    carried[mode] = w.latencies.length;
    for (let i = 0; i < 100; i++) {
      try {
        readFileSync(join(dir, `${mode}.heapprofile`));
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  const all = bytesBySite(join(dir, 'all.heapprofile'));
  const kept = bytesBySite(join(dir, 'survivors.heapprofile'));
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const perRequest = (bytes: number, n: number | undefined) => (n ? bytes / n / 1024 : 0);
  console.log(
    `${RATE}/s offered for ${SECONDS} s each: all allocations ${perRequest(sum(all), carried['all']).toFixed(1)} KB/request, survivors ${perRequest(sum(kept), carried['survivors']).toFixed(2)} KB/request`,
  );
  console.log('survived KB/request | allocated KB/request | share survived | allocating function');
  for (const [site, bytes] of [...kept].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    const allocated = all.get(site) ?? 0;
    console.log(
      `${perRequest(bytes, carried['survivors']).toFixed(3).padStart(8)} | ${perRequest(allocated, carried['all']).toFixed(3).padStart(8)} | ${allocated > 0 ? `${Math.round((100 * bytes) / allocated)} %`.padStart(6) : '     -'} | ${site}`,
    );
  }
} finally {
  await server.stop();
  upstream.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
