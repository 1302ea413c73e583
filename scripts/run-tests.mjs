#!/usr/bin/env node
// Node 20's test runner does not glob TypeScript files, so the file list is built here.
// Usage: node scripts/run-tests.mjs [path-fragment ...]  (fragments filter the files)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['src', 'test', 'extension', 'eval', 'bench'];
const skipDirs = new Set(['node_modules', 'dist', 'data', '.git']);

function walk(dir, out) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    if (skipDirs.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
}

const files = [];
for (const r of roots) walk(join(root, r), files);
const filters = process.argv.slice(2);
const chosen = files.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (chosen.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    // TAP as before on stdout, and a list of the failed tests at the very end (CI shows the tail).
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts', 'test-failures-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    ...chosen,
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
