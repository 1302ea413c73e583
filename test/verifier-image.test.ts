// The verifier's container files (deploy/verifier), checked without Docker: these machines have the docker
// CLI but no daemon, and Docker Hub does not resolve, so the image cannot be built here (docs/verifier.md
// says what was checked instead). What can be checked is: every COPY names something that exists and is not
// ignored, every runtime import is a production dependency (the image installs with --omit=dev), the compose
// file parses and points at this Dockerfile, and the image's own command, environment and HEALTHCHECK work
// on the process started as the container starts it.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCKERFILE = join(ROOT, 'deploy/verifier/Dockerfile');
const COMPOSE = join(ROOT, 'deploy/verifier/compose.yaml');

interface Instruction {
  stage: number;
  op: string;
  args: string;
}

/** Dockerfile instructions with continuation lines joined and comments dropped, numbered by stage. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let stage = -1;
  const joined = text.replace(/\\\n/g, ' ');
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    assert.ok(m, `unreadable Dockerfile line: ${line}`);
    const op = m[1]!.toUpperCase();
    if (op === 'FROM') stage++;
    out.push({ stage, op, args: m[2]!.trim() });
  }
  return out;
}

const dockerfile = instructions(readFileSync(DOCKERFILE, 'utf8'));
const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

/** Whether .dockerignore leaves a context path out (its patterns here are plain names and `*.ext`). */
function isIgnored(path: string): boolean {
  const clean = path.replace(/\/$/, '');
  return ignored.some((p) => {
    if (p.startsWith('*.')) return clean.endsWith(p.slice(1));
    return clean === p || clean.startsWith(`${p}/`);
  });
}

function copies(fromStage: boolean) {
  return dockerfile
    .filter((i) => i.op === 'COPY' && i.args.startsWith('--from=') === fromStage)
    .map((i) => {
      const parts = i.args.replace(/^--from=\S+\s+/, '').split(/\s+/);
      return { stage: i.stage, sources: parts.slice(0, -1), dest: parts.at(-1)! };
    });
}

/** Where `COPY src dest` puts src, relative to WORKDIR (a directory's contents go into dest). */
function copiedTo(src: string, dest: string): string {
  const d = dest.replace(/^\.\/?/, '');
  if (src.endsWith('/')) return d.replace(/\/$/, '') || src.replace(/\/$/, '');
  if (d === '') return src;
  return d.endsWith('/') ? `${d}${basename(src)}` : d;
}

describe('deploy/verifier/Dockerfile', () => {
  it('is multi-stage and runs as a non-root user with a data volume and a healthcheck', () => {
    assert.equal(dockerfile.filter((i) => i.op === 'FROM').length, 2);
    const run = dockerfile.filter((i) => i.stage === 1);
    assert.deepEqual(
      run.filter((i) => i.op === 'USER').map((i) => i.args),
      ['node'],
    );
    assert.ok(run.some((i) => i.op === 'VOLUME' && i.args.includes('/data')));
    assert.ok(run.some((i) => i.op === 'HEALTHCHECK' && i.args.includes('/api/health')));
  });

  it('copies only paths that exist in the build context and that .dockerignore keeps', () => {
    const fromContext = copies(false);
    assert.ok(fromContext.length > 0);
    for (const c of fromContext)
      for (const s of c.sources) {
        assert.ok(existsSync(join(ROOT, s)), `COPY ${s}: not in the repository`);
        assert.ok(!isIgnored(s), `COPY ${s}: left out by .dockerignore`);
      }
  });

  it('takes from the build stage only what that stage copied or its install and build wrote', () => {
    const buildStage = dockerfile.filter((i) => i.stage === 0);
    const workdir = buildStage.find((i) => i.op === 'WORKDIR')!.args.replace(/\/$/, '');
    const runs = buildStage.filter((i) => i.op === 'RUN').map((i) => i.args);
    // npm ci writes node_modules/; scripts/build-server.mjs writes build/ (the tree bin/parapet starts from).
    const made = new Set<string>();
    if (runs.some((r) => r.includes('npm ci'))) made.add('node_modules');
    if (runs.some((r) => r.includes('scripts/build-server.mjs'))) made.add('build');
    for (const c of copies(false).filter((x) => x.stage === 0))
      for (const s of c.sources) made.add(copiedTo(s, c.dest));
    for (const c of copies(true))
      for (const s of c.sources) {
        const rel = s.replace(`${workdir}/`, '').replace(/\/$/, '');
        assert.ok(made.has(rel), `COPY --from=build ${s}: the build stage neither copies nor makes it`);
      }
    assert.ok(
      readFileSync(join(ROOT, 'scripts/build-server.mjs'), 'utf8').includes("join(root, 'build')"),
      'build-server.mjs writes build/',
    );
  });

  it('needs at run time only production dependencies (the image installs with --omit=dev)', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const result = await build({
      entryPoints: [join(ROOT, 'src/main/cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
      outdir: join(tmpdir(), 'verifier-image-check'),
    });
    const bare = new Set<string>();
    for (const input of Object.values(result.metafile.inputs))
      for (const i of input.imports) {
        if (!i.external || i.path.startsWith('node:')) continue;
        const parts = i.path.split('/');
        bare.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    assert.ok(bare.size > 10, 'the CLI imports packages');
    const missing = [...bare].filter((p) => !pkg.dependencies[p]);
    assert.deepEqual(missing, [], 'imported at run time but not in dependencies');
  });
});

describe('deploy/verifier/compose.yaml', () => {
  const compose = parse(readFileSync(COMPOSE, 'utf8')) as {
    services: Record<string, any>;
    volumes: Record<string, unknown>;
  };

  it('parses, builds this Dockerfile from the repository root and declares its volumes', () => {
    const v = compose.services['verifier'];
    assert.ok(v, 'a verifier service');
    const context = join(ROOT, 'deploy/verifier', v.build.context);
    assert.equal(join(context, v.build.dockerfile), DOCKERFILE);
    assert.equal(join(context, '/'), join(ROOT, '/'));
    for (const s of Object.values(compose.services))
      for (const vol of (s.volumes ?? []) as string[]) {
        const name = vol.split(':')[0]!;
        assert.ok(name in compose.volumes, `volume ${name} declared`);
      }
    assert.ok(compose.services['db']?.healthcheck, 'the database has a healthcheck the verifier waits for');
    assert.equal(v.depends_on.db.condition, 'service_healthy');
  });

  it('every variable has a default or a required-variable message', () => {
    const text = readFileSync(COMPOSE, 'utf8');
    const vars = [...text.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]!);
    assert.ok(vars.length > 0);
    for (const v of vars) assert.match(v, /^[A-Z_]+(:-.*|:\?.+)$/, `\${${v}}`);
  });
});

describe('the image command, environment and HEALTHCHECK on the process it starts', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const runStage = dockerfile.filter((i) => i.stage === 1);
  const imageEnv: Record<string, string> = {};
  for (const i of runStage.filter((x) => x.op === 'ENV'))
    for (const m of i.args.matchAll(/(\w+)=(\S+)/g)) imageEnv[m[1]!] = m[2]!;
  const entrypoint = JSON.parse(runStage.find((i) => i.op === 'ENTRYPOINT')!.args) as string[];
  const cmd = JSON.parse(runStage.find((i) => i.op === 'CMD')!.args) as string[];
  // Shell form, as Docker runs it: /bin/sh -c with the rest of the line after CMD.
  const health = runStage.find((i) => i.op === 'HEALTHCHECK')!.args.replace(/^.*?\bCMD\s+/, '');

  it('serves /api/health as the HEALTHCHECK asks, and the check fails once the server is gone', async () => {
    assert.deepEqual(entrypoint.slice(0, 2), ['node', 'bin/parapet']);
    const dataDir = mkdtempSync(join(tmpdir(), 'parapet-verifier-image-'));
    dirs.push(dataDir);
    // The image's environment, with a free port and a temporary folder for its /data volume.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...imageEnv,
      LOG_LEVEL: 'silent',
      VERIFIER_PORT: '0',
      PARAPET_VERIFIER_DATA_DIR: dataDir,
    };
    delete env['PARAPET_VERIFIER_DATABASE_URL'];
    delete env['PARAPET_VERIFIER_MASTER_KEY'];
    delete env['PARAPET_VERIFIER_LICENSE'];
    const child = spawn(process.execPath, [...entrypoint.slice(1), ...cmd], { cwd: ROOT, env });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (b) => (output += b.toString()));
    child.stderr!.on('data', (b) => (output += b.toString()));
    const deadline = Date.now() + 60_000;
    while (!/listening on \S+:(\d+)/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`verifier did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = /listening on \S+:(\d+)/.exec(output)![1]!;
    // This Node first on PATH, as the image's node is.
    const path = `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`;
    const check = () =>
      spawnSync('/bin/sh', ['-c', health], { env: { ...process.env, PATH: path, VERIFIER_PORT: port } })
        .status;
    assert.equal(check(), 0, 'healthy while the server runs');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    assert.equal(check(), 1, 'unhealthy once it stopped');
  });
});
