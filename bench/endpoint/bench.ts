/**
 * 10,000 simulated devices against one API process (a child process, its own core), on SQLite and, when
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, on PostgreSQL. Prints, per offered rate, the heartbeats
 * per second carried with their p50/p99 (open loop: latency counts from when a request was due, so a
 * stalled server shows), then the share of conditional config fetches answered 304 and their latency.
 * Target (issue 19): 10,000 devices at a 60 s interval is 167 heartbeats/s; p99 ≤ 50 ms there.
 *
 * Beside every figure: the server process's CPU time for the phase (from /proc, user + system), the
 * heartbeats one server core carries by that CPU time (counted work, which load on a shared machine does
 * not inflate the way it does latency), and the 1-minute load average; a latency taken at load > 2 measures
 * the machine, not the server.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { Pool } from 'undici';
import { type ChartRow, writeChart } from '../../scripts/svg-chart.js';
import { percentileOf } from '../support/paced.js';
import { startBenchServer } from '../support/server.js';

const DEVICES = Number(process.env['DEVICES'] ?? 10_000);
const SECONDS = Number(process.env['SECONDS'] ?? 10);
const RATES = (process.env['RATES'] ?? '170,400,800').split(',').map(Number);
const DOMAINS = ['chatgpt.com', 'claude.ai', 'gemini.google.com', 'perplexity.ai', 'copilot.microsoft.com'];

interface Device {
  token: string;
  etag?: string;
}

async function registerAll(pool: Pool, key: string): Promise<Device[]> {
  const devices: Device[] = [];
  let next = 0;
  const worker = async () => {
    while (next < DEVICES) {
      const i = next++;
      const res = await pool.request({
        method: 'POST',
        path: '/api/v1/endpoint/register',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `device ${i}`, os: 'Windows 11', browser: 'Edge 141', extensionVersion: '1.4.0' }),
      });
      const body = (await res.body.json()) as { deviceToken?: string };
      if (res.statusCode !== 201 || !body.deviceToken) throw new Error(`register failed: ${res.statusCode}`);
      devices[i] = { token: body.deviceToken };
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return devices;
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the command: state is field 3, utime 14 and stime 15 (1-based over the whole line)
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

const load = () => `load ${loadavg()[0]!.toFixed(2)} (${cpus().length} cores)`;

/** Open-loop requests at an even pace, request i by device i mod N. */
async function paced(
  rate: number,
  seconds: number,
  send: (i: number) => Promise<number>,
): Promise<{ carried: number; p50: number; p99: number; failed: number; statuses: Map<number, number> }> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let failed = 0;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // A request sent up to 1 ms early counts from when it left, one sent late from when it was due: counting
    // every one from its due time would credit the early ones with time they did not wait.
    const from = Math.min(due, performance.now());
    inflight.push(
      send(i).then(
        (status) => {
          latencies.push(performance.now() - from);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 400) failed++;
        },
        () => {
          failed++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    carried: latencies.length / elapsed,
    p50: percentileOf(latencies, 0.5),
    p99: percentileOf(latencies, 0.99),
    failed,
    statuses,
  };
}

async function run(label: string, env: Record<string, string>) {
  const server = await startBenchServer(env);
  const pool = new Pool(server.url, { connections: 64, pipelining: 1 });
  try {
    const t0 = performance.now();
    const devices = await registerAll(pool, server.al);
    console.log(`${label}: ${DEVICES} devices registered in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const heartbeat = async (i: number) => {
      const d = devices[i % DEVICES] as Device;
      const domain = DOMAINS[i % DOMAINS.length] as string;
      const res = await pool.request({
        method: 'POST',
        path: '/api/v1/endpoint/heartbeat',
        headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ extensionVersion: '1.4.0', stats: { interactions: { [domain]: 1 + (i % 3) } } }),
      });
      await res.body.dump();
      return res.statusCode;
    };
    // warm-up: every device once (token and organization caches, statements), not counted
    await paced(500, DEVICES / 500, heartbeat);
    const chartRows: ChartRow[] = [];
    for (const rate of RATES) {
      const cpu0 = cpuSecondsOf(server.pid);
      const f = await paced(rate, SECONDS, heartbeat);
      const cpu = cpuSecondsOf(server.pid) - cpu0;
      const count = Math.round(rate * SECONDS);
      console.log(
        `${label}: heartbeats offered ${rate}/s carried ${f.carried.toFixed(0)}/s  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  failed ${f.failed}  |  server CPU ${((cpu * 1000) / count).toFixed(2)} ms/heartbeat = ${(count / cpu).toFixed(0)} heartbeats/s per core, ${((100 * cpu) / SECONDS).toFixed(0)}% of a core  |  ${load()}`,
      );
      chartRows.push({
        label: `offered ${rate}/s (carried ${f.carried.toFixed(0)}/s, ${load()})`,
        values: [f.p50, f.p99, (cpu * 1000) / count],
      });
    }
    writeChart(`bench-endpoint-${label}`, {
      title: `Endpoint heartbeats, ${DEVICES.toLocaleString('en')} devices, one API process on ${label}`,
      subtitle: `npm run bench:endpoint; open loop, ${SECONDS} s per rate; latency counts from when a request was due`,
      measures: ['p50 latency (ms)', 'p99 latency (ms)', 'server CPU per heartbeat (ms)'],
      rows: chartRows,
      unit: ' ms',
      reference: { value: 50, label: 'p99 target 50 ms' },
    });

    const config = async (i: number) => {
      const d = devices[i % DEVICES] as Device;
      const res = await pool.request({
        method: 'GET',
        path: '/api/v1/endpoint/config',
        headers: { authorization: `Bearer ${d.token}`, ...(d.etag ? { 'if-none-match': d.etag } : {}) },
      });
      await res.body.dump();
      const etag = res.headers['etag'];
      if (typeof etag === 'string') d.etag = etag;
      return res.statusCode;
    };
    const sample = Math.min(DEVICES, 2_000);
    await paced(500, sample / 500, config); // first fetch: every sampled device gets its ETag
    const condCpu0 = cpuSecondsOf(server.pid);
    const cond = await paced(500, sample / 500, config);
    const condCpu = cpuSecondsOf(server.pid) - condCpu0;
    const n304 = cond.statuses.get(304) ?? 0;
    const all = [...cond.statuses.values()].reduce((a, b) => a + b, 0);
    console.log(
      `${label}: conditional config fetches, nothing changed: ${((100 * n304) / all).toFixed(1)}% answered 304  p50 ${cond.p50.toFixed(1)} ms  p99 ${cond.p99.toFixed(1)} ms  |  server CPU ${((condCpu * 1000) / all).toFixed(2)} ms/fetch  |  ${load()}`,
    );
    // The policy change goes through the dashboard, as an administrator makes it.
    const login = await pool.request({
      method: 'POST',
      path: '/api/dashboard/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(server.owner),
    });
    await login.body.dump();
    const cookie = String(login.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    // The printed owner password must be replaced before the dashboard API answers (docs/auth.md).
    const changed = await pool.request({
      method: 'POST',
      path: '/api/dashboard/auth/me/password',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: server.owner?.password,
        newPassword: `bench-${server.owner?.password}`,
      }),
    });
    await changed.body.dump();
    const policy = await pool.request({
      method: 'POST',
      path: '/api/dashboard/endpoint/policies',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench',
        scope: { type: 'organization', targets: [] },
        rules: { dataProtection: { warnBeforeSubmit: { enabled: true, threshold: 50 } } },
        enforcement: 'warn',
      }),
    });
    await policy.body.dump();
    if (policy.statusCode !== 201) console.log(`${label}: the policy change failed (${policy.statusCode})`);
    await new Promise((r) => setTimeout(r, 1_100)); // the organization state cache (1 s)
    const after = await paced(500, sample / 500, config);
    console.log(
      `${label}: after a policy change: ${(((after.statuses.get(200) ?? 0) * 100) / sample).toFixed(1)}% fetched the new config (200)`,
    );
  } finally {
    await pool.close();
    await server.stop();
  }
}

await run('SQLite', {});
const pgUrl = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'];
if (pgUrl) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  try {
    await run('PostgreSQL', {
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
    });
  } finally {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  }
} else console.log('PostgreSQL: set BENCH_DATABASE_URL to measure');
