// Builds the dashboard (web/) into web/dist when the build is missing or older than its sources.
// `npm start` runs this first (prestart), the browser tests call ensureWebBuilt(): a fresh build is reused,
// never rebuilt needlessly. `npm run build:web` forces a build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'web');
const dist = join(web, 'dist');
const stampFile = join(dist, '.source-hash');
const lockFile = join(web, '.build.lock');

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/** Hash of everything the build reads: sources, config, and the locked versions of the tools. */
export function sourceHash(): string {
  const files = [join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'tsconfig.json'), join(root, 'package-lock.json')];
  walk(join(web, 'src'), files);
  const h = createHash('sha256');
  for (const f of files) {
    h.update(relative(root, f));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex');
}

export function isWebBuildFresh(): boolean {
  return existsSync(join(dist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === sourceHash();
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds unless fresh; one build at a time across processes (test files run in parallel). */
export function ensureWebBuilt(options: { force?: boolean; log?: (line: string) => void } = {}): 'fresh' | 'built' | 'unavailable' {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  if (!options.force && isWebBuildFresh()) return 'fresh';
  let vite: string;
  try {
    // the package's exports hide bin/: find it through package.json, which they do export
    vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    // An install without devDependencies: serve whatever build there is.
    log('dashboard: vite is not installed (npm ci without dev dependencies?); serving the existing build, if any');
    return 'unavailable';
  }
  const deadline = Date.now() + 180_000;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockFile, 'wx');
    } catch {
      if (Date.now() > deadline) rmSync(lockFile, { force: true });
      sleep(250);
      if (!options.force && isWebBuildFresh()) return 'fresh';
    }
  }
  try {
    if (!options.force && isWebBuildFresh()) return 'fresh';
    const hash = sourceHash();
    log('dashboard: building web/ (vite)…');
    const started = Date.now();
    const res = spawnSync(process.execPath, [vite, 'build', web], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (res.status !== 0) throw new Error(`vite build failed with status ${res.status}`);
    writeFileSync(stampFile, hash);
    log(`dashboard: built in ${Date.now() - started} ms`);
    return 'built';
  } finally {
    closeSync(fd);
    rmSync(lockFile, { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureWebBuilt({ force: process.argv.includes('--force') });
}
