/**
 * Events per second through the SIEM sinks: batched HTTP (Splunk HEC and Elastic _bulk contract fakes on
 * loopback) and real rsyslog over TLS with octet counting. Client and receiver share this machine's cores,
 * so the figures are a floor for the sink code, not a property of a real SIEM.
 *
 *   npm run bench:events:sinks            (BENCH_EVENTS=50000 BENCH_BATCH=500 by default)
 */
import { performance } from 'node:perf_hooks';
import { startBulkFake } from '../../test/receivers/bulk-fake.js';
import { startRsyslog } from '../../test/receivers/rsyslog.js';
import { detectionEvent } from '../../test/receivers/sample-events.js';
import { startHecFake } from '../../test/receivers/splunk-hec-fake.js';
import { createSink, type SiemEvent, type Sink } from '../../src/modules/siem/sinks/index.js';
import { basicAuth } from '../../src/modules/siem/sinks/bulk.js';
import { createOutbound } from '../../src/platform/net/index.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const TOTAL = Number(process.env['BENCH_EVENTS'] ?? 50_000);
const BATCH = Number(process.env['BENCH_BATCH'] ?? 500);

const events: SiemEvent[] = Array.from({ length: TOTAL }, (_, i) =>
  detectionEvent(i, { id: `evt_bench_${i}` }),
);
const avgBytes = Math.round(JSON.stringify(events.slice(0, 100)).length / 100);

async function run(name: string, sink: Sink, confirm: () => Promise<number>) {
  // Warm-up batch so connection set-up and JIT are not in the figure.
  await sink.send(events.slice(0, Math.min(BATCH, 100)).map((e) => ({ ...e, id: `${e.id}_warm` })));
  const lat: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < TOTAL; i += BATCH) {
    const s = performance.now();
    const r = await sink.send(events.slice(i, i + BATCH));
    lat.push(performance.now() - s);
    if (!r.ok) throw new Error(`${name}: batch failed: ${r.error}`);
  }
  const sent = performance.now() - t0;
  const received = await confirm();
  const total = performance.now() - t0;
  lat.sort((a, b) => a - b);
  const p = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))]!.toFixed(1);
  console.log(
    `${name.padEnd(22)} events=${TOTAL} batch=${BATCH} received=${received} ` +
      `send=${Math.round((TOTAL / sent) * 1000)} ev/s  end-to-end=${Math.round((TOTAL / total) * 1000)} ev/s  ` +
      `batch p50=${p(0.5)} ms p99=${p(0.99)} ms`,
  );
  await sink.close();
}

console.log(`node ${process.version}, ~${avgBytes} bytes of JSON per event`);
const outbound = createOutbound({ allowPrivate: true, timeoutMs: 30_000 });

const hec = await startHecFake('bench');
await run(
  'splunk-hec (fake)',
  createSink(
    { platform: 'SPLUNK', config: { hecUrl: hec.url, hecToken: 'bench' } },
    { outbound, allowPrivate: true },
  ),
  async () =>
    hec.envelopes.filter((e) => !String((e['fields'] as { event_id: string }).event_id).endsWith('_warm'))
      .length,
);
await hec.close();

const es = await startBulkFake('elasticsearch', basicAuth('u', 'p'));
await run(
  'elastic-bulk (fake)',
  createSink(
    { platform: 'ELASTIC', config: { url: es.url, username: 'u', password: 'p', index: 'bench-{yyyy.MM}' } },
    { outbound, allowPrivate: true },
  ),
  async () =>
    [...es.indices.values()].reduce(
      (n, m) => n + [...m.keys()].filter((k) => !k.endsWith('_warm')).length,
      0,
    ),
);
await es.close();

const rs = await startRsyslog();
try {
  await run(
    'rsyslog TLS (real)',
    createSink(
      {
        platform: 'SYSLOG',
        config: {
          host: 'localhost',
          port: rs.tlsPort,
          protocol: 'TLS',
          format: 'RFC5424',
          tlsCa: rs.pki.caPem,
        },
      },
      { outbound, allowPrivate: true, timeoutMs: 30_000 },
    ),
    // The warm-up batch is 100 events; everything after it is the measured run.
    async () => (await rs.waitForLines(TOTAL + 100, 120_000)) - 100,
  );
} finally {
  await rs.stop();
  await outbound.close();
}

chartPrinted('bench-events-sinks', {
  title: 'SIEM sinks: events per second, client and receiver on this machine',
  subtitle: 'npm run bench:events:sinks; Splunk HEC and Elastic _bulk fakes, real rsyslog over TLS',
  settings: { BENCH_EVENTS: TOTAL, BENCH_BATCH: BATCH },
  line: /^(?<label>.+?)\s+events=\d+ batch=\d+ received=\d+ send=(?<send>\d+) ev\/s\s+end-to-end=(?<e2e>\d+) ev\/s/,
  measures: [
    ['send', 'send'],
    ['end to end (received)', 'e2e'],
  ],
  unit: '/s',
  decimals: 0,
});
