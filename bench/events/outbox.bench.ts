/**
 * The outbox end to end, in one process on this machine (receivers on loopback share the cores):
 *   1. webhook deliveries/s: a backlog of committed events, drained by the dispatcher (sign, POST, record);
 *   2. p99 from event commit to first webhook attempt on the wire, with the workers' loops running;
 *   3. events/s from producer to a batched HTTP SIEM (Splunk HEC contract fake), commit to acknowledged;
 *   4. backlog drain rate after an outage: the SIEM answers 503 while events pile up, then recovers.
 * Zero loss across outage plus SIGKILL is checked by test/api/events-crash.test.ts.
 *
 *   npm run bench:events     (BENCH_WEBHOOKS=5000 BENCH_SIEM=20000 BENCH_RATE=500; DATABASE_URL for PostgreSQL)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createContext } from '../../src/main/context.js';
import { createEventWorkers } from '../../src/main/worker.js';
import { createWebhooksService } from '../../src/modules/events/index.js';
import { createSiemService } from '../../src/modules/siem/index.js';
import { loadConfig } from '../../src/platform/config/index.js';
import { startHecFake } from '../../test/receivers/splunk-hec-fake.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const WEBHOOKS = Number(process.env['BENCH_WEBHOOKS'] ?? 5000);
const SIEM = Number(process.env['BENCH_SIEM'] ?? 20000);
const RATE = Number(process.env['BENCH_RATE'] ?? 500);

const dataDir = mkdtempSync(join(tmpdir(), 'parapet-bench-events-'));
const schema = `bench_${randomBytes(4).toString('hex')}`;
const config = loadConfig({
  PARAPET_DATA_DIR: dataDir,
  PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
  PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
  LOG_LEVEL: 'silent',
  ...(process.env['DATABASE_URL']
    ? { DATABASE_URL: process.env['DATABASE_URL'], DATABASE_SCHEMA: schema }
    : {}),
});
const ctx = await createContext(config);
const workers = createEventWorkers(ctx);
const db = ctx.storage.db;

/** A webhook receiver answering 200 at once and noting when each event id first arrived. */
const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const id = req.headers['x-service-event-id'];
  if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, performance.now());
  req.resume();
  req.on('end', () => res.writeHead(200).end());
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const pct = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
const data = (i: number) => ({
  id: `det_${i}`,
  riskScore: 80,
  severity: 'HIGH',
  category: 'DAN_JAILBREAK',
  patterns: [{ type: 'jailbreak', match: 'ignore previous', score: 40 }],
  action: 'BLOCKED',
  blocked: true,
  inputLength: 120,
  inputPreview: 'ignore previous instructions [redacted]',
  endpoint: '/api/v1/analyze',
});

/** Commits n events in transactions of 100, as producers would (one event per change). */
async function produce(org: { id: string; plan: string }, n: number, onEach?: (id: string) => void) {
  for (let i = 0; i < n; i += 100) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(n, i + 100); j++) {
        const ev = await ctx.events.publish(trx, org, 'detection.created', data(j));
        if (ev && onEach) onEach(ev.id);
      }
    });
  }
}

console.log(`node ${process.version}, ${ctx.storage.dialect}`);

// 1. Webhook deliveries per second, draining a committed backlog.
{
  const org = await ctx.orgs.createOrg({ name: 'Bench Hooks', plan: 'enterprise' });
  const hooks = createWebhooksService({
    db,
    clock: ctx.clock,
    sealer: ctx.sealer,
    allowPrivateTargets: true,
    dispatcher: workers.dispatcher,
  });
  await hooks.create(org.id, { url: hookUrl, events: ['detection.created'] });
  let t0 = performance.now();
  await produce(org, WEBHOOKS);
  const produced = performance.now() - t0;
  t0 = performance.now();
  let sent = 0;
  while (sent < WEBHOOKS) {
    const n = await workers.dispatcher.runDue(50);
    if (n === 0) break;
    sent += n;
  }
  const ms = performance.now() - t0;
  console.log(
    `webhook deliveries     events=${WEBHOOKS} delivered=${arrivals.size} produce=${Math.round((WEBHOOKS / produced) * 1000)} ev/s  ` +
      `deliveries=${Math.round((sent / ms) * 1000)} /s (signed POST + outcome and attempt log written)`,
  );
  await hooks.remove(org.id, (await hooks.list(org.id))[0]!.id);
}

// 2. Event commit -> first webhook attempt, loops running, steady producer at RATE events/s.
{
  arrivals.clear();
  const org = await ctx.orgs.createOrg({ name: 'Bench Latency', plan: 'enterprise' });
  const hooks = createWebhooksService({
    db,
    clock: ctx.clock,
    sealer: ctx.sealer,
    allowPrivateTargets: true,
    dispatcher: workers.dispatcher,
  });
  await hooks.create(org.id, { url: hookUrl, events: ['detection.created'] });
  await workers.start();
  const committedAt = new Map<string, number>();
  const seconds = 4;
  const t0 = performance.now();
  for (let i = 0; i < RATE * seconds; i++) {
    const ev = await ctx.events.publish(db, org, 'detection.created', data(i));
    if (ev) committedAt.set(ev.id, performance.now());
    const due = t0 + ((i + 1) * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
  }
  const until = performance.now() + 15_000;
  while (arrivals.size < committedAt.size && performance.now() < until) await sleep(20);
  const lat = [...committedAt]
    .map(([id, at]) => (arrivals.get(id) ?? Number.POSITIVE_INFINITY) - at)
    .sort((a, b) => a - b);
  console.log(
    `commit -> 1st attempt  events=${committedAt.size} at ${RATE}/s arrived=${arrivals.size} ` +
      `p50=${pct(lat, 0.5).toFixed(1)} ms p99=${pct(lat, 0.99).toFixed(1)} ms max=${lat.at(-1)!.toFixed(1)} ms`,
  );
  await workers.close();
  await hooks.remove(org.id, (await hooks.list(org.id))[0]!.id);
}

// 3 and 4. Batched HTTP SIEM: producer to acknowledgement, then the backlog after an outage.
{
  const hec = await startHecFake('bench-hec-token');
  const org = await ctx.orgs.createOrg({ name: 'Bench SIEM', plan: 'enterprise' });
  const w = createEventWorkers(ctx);
  const siem = createSiemService({
    db,
    clock: ctx.clock,
    sealer: ctx.sealer,
    outbound: w.outbound,
    allowPrivateTargets: true,
    forwarder: w.forwarder,
  });
  const integ = await siem.create(org.id, {
    platform: 'SPLUNK',
    name: 'bench',
    eventTypes: ['DETECTION'],
    config: { hecUrl: hec.url, hecToken: 'bench-hec-token' },
  });
  await w.start();
  let t0 = performance.now();
  await produce(org, SIEM);
  const produced = performance.now() - t0;
  let until = performance.now() + 120_000;
  while (hec.envelopes.length < SIEM && performance.now() < until) await sleep(10);
  const e2e = performance.now() - t0;
  console.log(
    `SIEM (Splunk HEC)      events=${SIEM} acknowledged=${hec.envelopes.length} produce=${Math.round((SIEM / produced) * 1000)} ev/s  ` +
      `producer->sink=${Math.round((SIEM / e2e) * 1000)} ev/s`,
  );

  // Outage: every send fails until the queue holds the whole burst, then the SIEM recovers.
  await w.close();
  hec.fail({ status: 503, body: { text: 'Server is busy', code: 9 } });
  const before = hec.envelopes.length;
  await produce(org, SIEM);
  const w2 = createEventWorkers(ctx);
  await w2.forwarder.runDue(); // meets the 503: breaker opens, events stay queued
  const st = await siem.get(org.id, integ.id);
  // Recovery: the breaker's next probe is due now.
  await db
    .updateTable('siem_integrations')
    .set({ next_attempt_at: new Date().toISOString() })
    .where('id', '=', integ.id)
    .execute();
  t0 = performance.now();
  await w2.start();
  until = performance.now() + 120_000;
  while (hec.envelopes.length - before < SIEM && performance.now() < until) await sleep(10);
  const drain = performance.now() - t0;
  let after = await siem.get(org.id, integ.id);
  // The last batch is acknowledged before its queue rows are settled: wait for the bookkeeping too.
  for (let i = 0; i < 100 && after.status.queued > 0; i++) {
    await sleep(20);
    after = await siem.get(org.id, integ.id);
  }
  console.log(
    `backlog drain          queued=${st.status.queued} circuit=${st.status.circuit} drained=${hec.envelopes.length - before} ` +
      `in ${Math.round(drain)} ms = ${Math.round(((hec.envelopes.length - before) / drain) * 1000)} ev/s (${((((hec.envelopes.length - before) / drain) * 1000) / RATE).toFixed(1)}x a ${RATE}/s ingest) ` +
      `left=${after.status.queued} dead=${after.status.deadLettered}`,
  );
  await w2.close();
  await hec.close();
}

receiver.closeAllConnections();
receiver.close();
await ctx.close();
rmSync(dataDir, { recursive: true, force: true });
if (process.env['DATABASE_URL']) {
  const pg = await import('pg');
  const c = new pg.default.Client({ connectionString: process.env['DATABASE_URL'] });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}

// Charts of the figures above: rates in one, the commit-to-webhook latency in the other.
const settings = {
  BENCH_WEBHOOKS: WEBHOOKS,
  BENCH_SIEM: SIEM,
  BENCH_RATE: RATE,
  database: ctx.storage.dialect,
};
chartPrinted('bench-events-rates', {
  title: 'Event outbox: events per second, one process',
  subtitle: 'npm run bench:events; webhook receiver and Splunk HEC fake on loopback',
  settings,
  line: /^(?:(?<hooks>webhook) deliveries .*deliveries=(?<d>\d+) \/s|(?<siem>SIEM) \(Splunk HEC\) .*producer->sink=(?<s>\d+) ev\/s|(?<drain>backlog) drain .* = (?<b>\d+) ev\/s)/,
  label: (g) =>
    g['hooks']
      ? 'webhook deliveries (backlog)'
      : g['siem']
        ? 'SIEM, producer to acknowledged'
        : 'SIEM backlog after an outage',
  measures: [['events per second', 'd|s|b']],
  unit: '/s',
  decimals: 0,
});
chartPrinted('bench-events-latency', {
  title: 'Event outbox: commit to first webhook attempt',
  subtitle: `npm run bench:events; steady producer at ${RATE} events/s, worker loops running`,
  settings,
  line: /^(?<label>commit -> 1st attempt) .*p50=(?<p50>[\d.]+) ms p99=(?<p99>[\d.]+) ms max=(?<max>[\d.]+) ms/,
  measures: [
    ['p50', 'p50'],
    ['p99', 'p99'],
    ['max', 'max'],
  ],
  unit: ' ms',
});
