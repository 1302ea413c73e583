/**
 * Where the CPU of a request goes when `parapet serve` runs as several processes (PARAPET_HTTP_WORKERS):
 * starts the real server (one process, or a primary and its API processes) against the fake upstream, warms
 * it with the network proxy's chat bodies, then runs one paced window with personal data and one without,
 * and prints for each: CPU per request of every process (user/system from /proc), and of every thread of
 * the server whose share is not negligible (the main threads, V8's helper threads for compilation and
 * concurrent marking, the SQLite checkpoint thread). Asserts nothing.
 *
 *   tsx bench/cluster/cpu-split.ts   (WORKERS, RATE, WARM and SECONDS change the sample; PERF=FILE records
 *   the personal-data window with `perf record -e cpu-clock`; TRACE=PREFIX starts the server with
 *   --trace-opt --trace-deopt and writes each window's lines to PREFIX.<with|without>.txt; NODE_ARGS adds
 *   V8/Node flags to every server process, e.g. NODE_ARGS=--no-memory-reducer; OUT=PREFIX writes each
 *   window's server output to PREFIX.<with|without>.txt, e.g. with NODE_ARGS=--trace-gc)
 */
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { chatBody } from '../support/netproxy-load.js';
import { pacedLoad } from '../support/paced.js';
import { childrenOf, statCpuMs as cpuOf } from '../support/proc-cpu.js';
import { startBenchServer } from '../support/server.js';
import { startUpstream } from '../support/upstream.js';

const WORKERS = process.env['WORKERS'] ?? '2';
const RATE = Number(process.env['RATE'] ?? 500);
const WARM = Number(process.env['WARM'] ?? 3);
const SECONDS = Number(process.env['SECONDS'] ?? 6);
/** CPU milliseconds (user + system) of every thread of the given processes, by "process/thread id". */
function threadsOf(pids: Array<{ name: string; pid: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { name, pid } of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const c = cpuOf(`/proc/${pid}/task/${tid}/stat`);
      out.set(`${name}/${tid === String(pid) ? 'main' : tid}`, c.user + c.system);
    }
  }
  return out;
}

const upstream = await startUpstream();
const trace = process.env['TRACE'];
const server = await startBenchServer(
  {
    PARAPET_PROVIDER_OPENAI_BASE_URL: `${upstream.url}/v1`,
    PARAPET_COMPUTE_THREADS: '0',
    PARAPET_HTTP_WORKERS: WORKERS,
  },
  [
    ...(trace ? ['--trace-opt', '--trace-deopt'] : []),
    ...(process.env['NODE_ARGS'] ?? '').split(' ').filter(Boolean),
  ],
);
try {
  const url = `${server.proxyUrl}/proxy/openai/v1/chat/completions`;
  const headers = {
    authorization: 'Bearer sk-bench',
    'x-service-key': server.al,
    'content-type': 'application/json',
  };
  for (const pii of [false, true])
    await pacedLoad({ url, headers, body: () => chatBody(pii), rate: RATE, seconds: WARM });
  const root = server.pid as number;
  const processes = [
    { name: WORKERS === '1' ? 'server' : 'primary', pid: root },
    ...childrenOf(root).map((pid, i) => ({ name: `api${i + 1}`, pid })),
  ];
  for (const pii of [true, false]) {
    let perProcess: Array<{ user: number; system: number }> = [];
    let perThread = new Map<string, number>();
    let outputFrom = 0;
    let perf: ReturnType<typeof spawn> | undefined;
    const r = await pacedLoad({
      url,
      headers,
      body: () => chatBody(pii),
      rate: RATE,
      seconds: SECONDS,
      beforeClock: async () => {
        perProcess = processes.map((p) => cpuOf(`/proc/${p.pid}/stat`));
        perThread = threadsOf(processes);
        outputFrom = server.output().length;
        const file = process.env['PERF'];
        if (file && pii) {
          const pids = processes.map((p) => p.pid).join(',');
          perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-o', file, '-p', pids], {
            stdio: 'ignore',
          });
        }
      },
    });
    if (perf) {
      const done = new Promise((resolve) => perf?.once('exit', resolve));
      perf.kill('SIGINT');
      await done;
    }
    const n = Math.max(1, r.latencies.length + r.failed);
    const label = pii ? 'with' : 'without';
    const outPrefix = trace ?? process.env['OUT'];
    if (outPrefix) writeFileSync(`${outPrefix}.${label}.txt`, server.output().slice(outputFrom));
    let total = 0;
    const split = processes.map((p, i) => {
      const now = cpuOf(`/proc/${p.pid}/stat`);
      const user = (now.user - (perProcess[i]?.user ?? 0)) / n;
      const system = (now.system - (perProcess[i]?.system ?? 0)) / n;
      total += user + system;
      return `${p.name} ${user.toFixed(3)}/${system.toFixed(3)}`;
    });
    const threads = [...threadsOf(processes)]
      .map(([k, ms]) => [k, (ms - (perThread.get(k) ?? 0)) / n] as const)
      .filter(([, ms]) => ms >= 0.005)
      .map(([k, ms]) => `${k} ${ms.toFixed(3)}`);
    console.log(
      `${WORKERS} API process(es), ${label} personal data, offered ${RATE}/s for ${SECONDS} s: carried ${r.carried}/s, failed ${r.failed}; CPU per request ${total.toFixed(2)} ms (user/system: ${split.join(', ')}); threads: ${threads.join(', ')}`,
    );
  }
} finally {
  await server.stop();
  upstream.child.kill('SIGTERM');
}
