/**
 * Vault write/read costs on SQLite and PostgreSQL, and HTTP throughput of /api/v1/dlp/analyze.
 * PostgreSQL runs when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set. HTTP throughput is measured with one
 * API process and with two (PARAPET_HTTP_WORKERS=2).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createContext } from '../../src/main/context.js';
import { loadConfig } from '../../src/platform/config/index.js';
import { type HttpFigures, load, printHttp } from '../support/autocannon.js';
import { startBenchServer } from '../support/server.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const TEXT =
  'Hello, my name is Anna Meier. Please transfer the refund to CH93 0076 2011 6238 5295 7 and send the ' +
  'receipt to anna.meier@example.com or call +41 44 668 18 00. ';

function pct(sorted: number[], p: number): string {
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(3);
}

async function vaultCosts(label: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-vault-bench-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const ctx = await createContext(
    loadConfig({
      LOG_LEVEL: 'silent',
      PARAPET_DATA_DIR: dir,
      PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
      ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
    }),
  );
  try {
    const org = await ctx.orgs.createOrg({ name: 'bench', plan: 'enterprise' });
    const writes: number[] = [];
    const reads: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 400; i++) {
      const t0 = performance.now();
      const out = await ctx.vault.tokenize(org.id, TEXT);
      writes.push(performance.now() - t0);
      ids.push(out.sessionId);
    }
    for (const id of ids) {
      const t0 = performance.now();
      await ctx.vault.session(org.id, id, true);
      reads.push(performance.now() - t0);
    }
    writes.sort((a, b) => a - b);
    reads.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(12)} new session + 4 tokens: p50 ${pct(writes, 50)} ms  p99 ${pct(writes, 99)} ms | ` +
        `load session from the database: p50 ${pct(reads, 50)} ms  p99 ${pct(reads, 99)} ms`,
    );
  } finally {
    await ctx.close();
    if (env.DATABASE_URL) {
      const c = new pg.Client({ connectionString: env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await vaultCosts('SQLite', {});
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) await vaultCosts('PostgreSQL', { DATABASE_URL: pgUrl });
else console.log('PostgreSQL   (set BENCH_DATABASE_URL to measure)');

// One API process, then two on the same port (PARAPET_HTTP_WORKERS, ADR 4). This machine is shared and its
// figures move by a quarter from one run to the next, so after a warm-up each is run ROUNDS times and the
// median printed.
const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
for (const processes of ['1', '2']) {
  const server = await startBenchServer({ PARAPET_HTTP_WORKERS: processes });
  try {
    const body = JSON.stringify({ text: TEXT.repeat(4) });
    console.log(
      `HTTP, server on SQLite, ${processes} API process(es), body ${body.length} bytes, 16 connections, ${ROUNDS} x 8 s:`,
    );
    // Warm-up, not counted: the first seconds of a fresh process run unoptimised code on an empty file.
    await load({
      url: `${server.url}/api/v1/dlp/analyze`,
      headers: { authorization: `Bearer ${server.al}` },
      body,
      seconds: 3,
    });
    const runs: HttpFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const figures = await load({
        url: `${server.url}/api/v1/dlp/analyze`,
        headers: { authorization: `Bearer ${server.al}` },
        body,
      });
      printHttp(`  round ${round + 1}`, figures);
      runs.push(figures);
    }
    runs.sort((a, b) => a.requestsPerSec - b.requestsPerSec);
    printHttp('POST /api/v1/dlp/analyze (median round)', runs[Math.floor(runs.length / 2)] as HttpFigures);
  } finally {
    await server.stop();
  }
}

chartPrinted('bench-dlp-vault', {
  title: 'DLP vault: a new session with 4 tokens, and loading a session back',
  subtitle: 'npm run bench:dlp:vault; 400 sessions per database, in process',
  line: /^(?<label>SQLite|PostgreSQL)\s+new session \+ 4 tokens: p50 (?<w50>[\d.]+) ms\s+p99 (?<w99>[\d.]+) ms \| load session from the database: p50 (?<r50>[\d.]+) ms\s+p99 (?<r99>[\d.]+) ms/,
  measures: [
    ['write p50', 'w50'],
    ['write p99', 'w99'],
    ['read p50', 'r50'],
    ['read p99', 'r99'],
  ],
  unit: ' ms',
  decimals: 2,
});
chartPrinted('bench-dlp-http', {
  title: 'POST /api/v1/dlp/analyze over HTTP (tokenize into the vault), server on SQLite',
  subtitle: 'npm run bench:dlp:vault; autocannon, 16 connections, median of the 8 s rounds',
  settings: { ROUNDS },
  line: /^(?<label>POST \S+ \(median round\))\s+(?<rps>\d+) req\/s\s+p50 (?<p50>[\d.]+) ms\s+p99 (?<p99>[\d.]+) ms/,
  section: /^HTTP, server on SQLite, (\d+ API process\(es\))/,
  label: (g, section) => `${section}, median round: ${g['rps']} req/s`,
  measures: [
    ['p50', 'p50'],
    ['p99', 'p99'],
  ],
  unit: ' ms',
});
