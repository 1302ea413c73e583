#!/usr/bin/env node
// `npm run eval` and `npm run bench`: every script named `<group>:*` in package.json, one after another.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const group = process.argv[2];
if (!group) {
  console.error('usage: run-group.mjs <group>');
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const names = Object.keys(pkg.scripts ?? {}).filter((n) => n.startsWith(`${group}:`)).sort();
let failed = 0;
for (const name of names) {
  console.log(`\n===== npm run ${name} =====`);
  const r = spawnSync('npm', ['run', '-s', name], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(${name} exited with ${r.status})`);
  }
}
console.log(`\n${names.length - failed} of ${names.length} ${group} scripts succeeded`);
process.exit(failed > 0 ? 1 : 0);
