import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { closedPort, dropSchema } from './support/harness.js';

// A serving command that cannot start must stop, with a message naming the setting to change: a process
// that printed its failure but stayed alive (its database pool, compute threads and Redis connection open,
// listening nowhere) is "running" to an orchestrator, which then never restarts it. On PostgreSQL and Redis
// (TEST_DATABASE_URL, TEST_REDIS_URL) when they are set: an open Redis connection is what kept it alive.

const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
let cwd: string;
let taken: Server;
let takenPort: number;
const id = randomBytes(6).toString('hex');
const schema = `t_${id}`;
const shared: Record<string, string> = {
  ...(process.env.TEST_DATABASE_URL
    ? {
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
      }
    : {}),
  ...(process.env.TEST_REDIS_URL
    ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `test:${id}:` }
    : {}),
};

// The verification server on a port of its own (any free one) and its own store in the test folder.
const VERIFIER_ENV = { VERIFIER_PORT: '0' };

function run(env: Record<string, string>, ...args: string[]) {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    PORT: '0',
    PROXY_PORT: '0',
    PARAPET_DATA_DIR: join(cwd, 'data'),
    PARAPET_COMPUTE_THREADS: '0',
  };
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  delete base.PARAPET_MASTER_KEY;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...base, ...shared, ...env },
    encoding: 'utf8',
    // A process that does not stop is the failure under test: it is killed here and fails the assertions.
    timeout: 90_000,
  });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

before(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'parapet-startup-'));
  taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  takenPort = (taken.address() as { port: number }).port;
  assert.equal(run({}, 'migrate').code, 0);
});
after(async () => {
  await new Promise<void>((r) => taken.close(() => r()));
  rmSync(cwd, { recursive: true, force: true });
  if (process.env.TEST_DATABASE_URL) await dropSchema(process.env.TEST_DATABASE_URL, schema);
});

describe('serving commands that cannot start', () => {
  it('stop with the settings named when the port is taken (serve, proxy, proxy --intercept)', () => {
    const port = String(takenPort);
    const cases: Array<[Record<string, string>, string[], RegExp]> = [
      [{ PORT: port }, ['serve'], /\(HOST, PORT\): the address is already in use/],
      [{ PROXY_PORT: port }, ['serve'], /\(HOST, PROXY_PORT\): the address is already in use/],
      [{ PROXY_PORT: port }, ['proxy'], /\(HOST, PROXY_PORT\): the address is already in use/],
    ];
    assert.equal(run({}, 'proxy', 'ca', 'init').code, 0);
    cases.push([
      { PARAPET_INTERCEPT_PORT: port },
      ['proxy', '--intercept'],
      /\(HOST, PARAPET_INTERCEPT_PORT\): the address is already in use/,
    ]);
    for (const [env, args, message] of cases) {
      const what = `${args.join(' ')} ${JSON.stringify(env)}`;
      const r = run(env, ...args);
      assert.equal(r.code, 1, `${what} exits 1 (stderr: ${r.stderr})`);
      assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} `), what);
      assert.match(r.stderr, message, what);
      assert.doesNotMatch(r.stderr, /unexpected failure/, what);
    }
  });

  it('stop with PARAPET_DATA_DIR named when the proof folders cannot be written (serve, two processes)', () => {
    // A file where the spool folder belongs: refused whoever runs the test (root may write anywhere else).
    const spool = join(cwd, 'data', 'proofs-spool');
    rmSync(spool, { recursive: true, force: true });
    writeFileSync(spool, 'not a folder');
    try {
      const envs: Array<Record<string, string>> = [{}, { PARAPET_HTTP_WORKERS: '2' }];
      for (const env of envs) {
        const r = run(env, 'serve');
        assert.equal(r.code, 1, `${JSON.stringify(env)}: ${r.stderr}`);
        assert.match(r.stderr, /cannot write .*proofs-spool \(PARAPET_DATA_DIR\): EEXIST; PDF proof uploads/);
        // (Two processes: the primary adds that an API process exited on start, as for a taken port.)
        if (!('PARAPET_HTTP_WORKERS' in env)) assert.doesNotMatch(r.stderr, /unexpected failure/);
      }
    } finally {
      rmSync(spool, { force: true });
    }
  });

  it('stop with the variable named when HOST does not resolve', () => {
    const r = run({ HOST: 'no-such-host.invalid' }, 'proxy');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cannot listen on no-such-host\.invalid:0 \(HOST, PROXY_PORT\)/);
  });

  it('stop with REDIS_URL named when Redis does not answer (serve, proxy, worker, verifier)', async () => {
    const closed = await closedPort();
    // Refused, and accepted by something that never answers (a wrong port).
    const cases: Array<[number, string[]]> = [
      [closed, ['serve']],
      [closed, ['worker']],
      [takenPort, ['proxy']],
      [closed, ['verifier']],
      [takenPort, ['verifier']],
    ];
    for (const [port, args] of cases) {
      const url = `redis://user:s3cret-pw@127.0.0.1:${port}/2`;
      const r = run({ REDIS_URL: url, ...VERIFIER_ENV }, ...args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`Redis does not answer at REDIS_URL \\(127\\.0\\.0\\.1:${port}/2\\)`),
        args[0],
      );
      assert.doesNotMatch(r.stderr + r.stdout, /s3cret-pw/, 'the password is never printed');
    }
  });

  it('stop with DATABASE_URL named when PostgreSQL cannot be reached or never answers', async () => {
    const closed = await closedPort();
    for (const port of [closed, takenPort]) {
      const url = `postgres://parapet:s3cret-pw@127.0.0.1:${port}/parapet`;
      const r = run({ DATABASE_URL: url, PARAPET_MASTER_KEY: 'a'.repeat(64) }, 'serve');
      assert.equal(r.code, 1, `port ${port}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(
          `^parapet: cannot use the PostgreSQL database of DATABASE_URL \\(127\\.0\\.0\\.1:${port}/parapet\\): `,
          'm',
        ),
      );
      assert.doesNotMatch(r.stderr + r.stdout, /s3cret-pw/, 'the password is never printed');
    }
  });

  it('parapet migrate says which database it migrates, and names an unreachable one', async () => {
    const ok = run({}, 'migrate');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /^database: (SQLite \S+parapet\.db|PostgreSQL \S+ \(schema t_\w+\))$/m);
    const port = await closedPort();
    const down = run({ DATABASE_URL: `postgres://u:s3cret-pw@127.0.0.1:${port}/db` }, 'migrate');
    assert.equal(down.code, 1, down.stderr);
    assert.match(
      down.stderr,
      new RegExp(`cannot use the PostgreSQL database of DATABASE_URL \\(127\\.0\\.0\\.1:${port}/db\\)`),
    );
    assert.doesNotMatch(down.stderr, /s3cret-pw/);
  });

  it('print a bad setting as a configuration error, not an unexpected failure', () => {
    const r = run({ PORT: '99999' }, 'serve');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^parapet: invalid configuration: PORT must be an integer from 0 to 65535$/m);
  });
});

describe('expected start failures are configuration errors, with exit 1 and one line', () => {
  // Nothing listens there: the key is checked before the database is opened, so this needs no PostgreSQL
  // (the test used to name a database that existed only on the machine it was written on).
  const pg = 'postgres://postgres@127.0.0.1:1/nothing_here';
  it('a missing or short master key with PostgreSQL, a verifier LLM list that is not JSON, a verifier port in use', () => {
    const cases: Array<[Record<string, string>, string[], RegExp]> = [
      [
        { DATABASE_URL: pg, DATABASE_SCHEMA: `${schema}_k`, PARAPET_MASTER_KEY: '' },
        ['serve'],
        /^parapet: invalid configuration: PARAPET_MASTER_KEY is required with a PostgreSQL store/m,
      ],
      [
        { DATABASE_URL: pg, DATABASE_SCHEMA: `${schema}_k`, PARAPET_MASTER_KEY: 'abc' },
        ['serve'],
        /^parapet: invalid configuration: PARAPET_MASTER_KEY must be 32 bytes/m,
      ],
      [
        {
          PARAPET_VERIFIER_DATA_DIR: join(cwd, 'vf1'),
          PARAPET_VERIFIER_LLMS: 'not json',
          VERIFIER_PORT: '0',
        },
        ['verifier'],
        /^parapet: invalid configuration: PARAPET_VERIFIER_LLMS must be a JSON array$/m,
      ],
      [
        { PARAPET_VERIFIER_DATA_DIR: join(cwd, 'vf2'), VERIFIER_PORT: String(takenPort) },
        ['verifier'],
        /^parapet: cannot listen on .*\(HOST, VERIFIER_PORT\)/m,
      ],
    ];
    for (const [env, args, pattern] of cases) {
      const r = run(env, ...args);
      assert.equal(r.code, 1, `${JSON.stringify(env)} ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /unexpected failure|run parapet --help/);
    }
  });

  it('worker, proxy and dns without a database, and an unknown organization or user: exit 1, no help hint', () => {
    const empty = mkdtempSync(join(tmpdir(), 'parapet-nodb-'));
    try {
      for (const args of [['worker'], ['proxy'], ['dns', '--org', 'org_x']]) {
        const r = run({ PARAPET_DATA_DIR: join(empty, 'data'), DATABASE_URL: '' }, ...args);
        assert.equal(r.code, 1, `${args[0]} ${r.stderr}`);
        assert.match(r.stderr, /^parapet: no Parapet database at /m);
        assert.doesNotMatch(r.stderr, /run parapet --help/);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const r = run({}, 'key', 'create', '--org', 'org_nope', '--kind', 'al');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^parapet: organization org_nope does not exist$/m);
    assert.doesNotMatch(r.stderr, /run parapet --help/);
  });
});

describe('commands given an --out that cannot be written, or no organization', () => {
  it('refuse before any work, with exit 2 and the path named', () => {
    const org = JSON.parse(run({}, 'org', 'create', '--name', 'Out', '--json').stdout);
    const prompts = join(cwd, 'prompts.txt');
    writeFileSync(prompts, 'hello\n');
    const out = join(cwd, 'no-such-folder', 'x.out');
    for (const args of [
      ['scan', prompts, '--out', out],
      ['report', '--org', org.id, '--period', '7d', '--out', out],
      ['proxy', 'ca', 'export', '--out', out],
    ]) {
      const r = run({}, ...args);
      assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /--out \S+x\.out: the folder \S+no-such-folder does not exist/, args[0]);
      assert.doesNotMatch(r.stderr, /unexpected failure|Unhandled|\n\s+at /, args[0]);
    }
  });

  it('parapet dns without an organization, or with an unknown one, says so plainly', () => {
    const none = run({}, 'dns');
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /needs the organization: --org ID or PARAPET_DNS_ORG/);
    const unknown = run({ PARAPET_DNS_PORT: '0' }, 'dns', '--org', 'org_nope');
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /^parapet: organization org_nope does not exist/m);
  });
});
