#!/usr/bin/env node
// Transpiles src/ (tests excluded) to build/ with esbuild, file for file, so that the CLI and the servers
// start from plain JavaScript instead of compiling TypeScript at every start (docs/adr/0006). build/ sits
// beside src/ at the same depth, so a path relative to a module (`new URL('../../package.json',
// import.meta.url)`) means the same file from either tree. Files other than TypeScript are copied.
//
// `npm ci` runs it (prepare) and bin/parapet runs it again whenever a source is newer than the last build,
// so a stale build is never run. Usage: node scripts/build-server.mjs [--quiet]
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(root, 'src');
const outDir = join(root, 'build');
const stampFile = join(outDir, '.stamp.json');

function sources() {
  const ts = [];
  const assets = [];
  let newest = 0;
  (function walk(dir) {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) {
        walk(full);
        continue;
      }
      if (/\.test\.ts$|\.bench\.ts$/.test(name) || name === 'README.md') continue;
      newest = Math.max(newest, st.mtimeMs);
      (name.endsWith('.ts') ? ts : assets).push(full);
    }
  })(srcDir);
  return { ts, assets, newest, count: ts.length + assets.length };
}

/** True when build/ holds a transpile of exactly the current sources. */
export function isFresh(found = sources()) {
  if (!existsSync(stampFile)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp.newest === found.newest && stamp.count === found.count;
  } catch {
    return false;
  }
}

/** Builds when stale; returns the URL of the CLI entry in build/. */
export async function ensureBuilt({ quiet = true } = {}) {
  const found = sources();
  if (!isFresh(found)) {
    const { build } = await import('esbuild');
    // Built aside and swapped in, so a process starting meanwhile never sees half a tree.
    const tmp = `${outDir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    await build({
      entryPoints: found.ts,
      outdir: tmp,
      outbase: srcDir,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: quiet ? 'error' : 'warning',
    });
    for (const asset of found.assets) {
      const to = join(tmp, relative(srcDir, asset));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(asset, to);
    }
    writeFileSync(join(tmp, '.stamp.json'), JSON.stringify({ newest: found.newest, count: found.count }));
    const old = `${outDir}.old-${process.pid}`;
    if (existsSync(outDir)) renameSync(outDir, old);
    try {
      renameSync(tmp, outDir);
    } catch (err) {
      // Another process swapped in its own build of the same sources first.
      if (!existsSync(outDir)) throw err;
      rmSync(tmp, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
    if (!quiet) process.stdout.write(`build-server: ${found.ts.length} modules to build/\n`);
  }
  return new URL('../build/main/cli.js', import.meta.url).href;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureBuilt({ quiet: process.argv.includes('--quiet') });
}
