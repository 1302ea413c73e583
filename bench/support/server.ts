import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server as a child process (its own core), on a temp data folder, with the bootstrap keys
 * read from its first-start output. Benchmarks drive it over loopback.
 */
export interface BenchServer {
  url: string;
  /** The network proxy that serve starts beside the API (`…/proxy`). */
  proxyUrl: string | undefined;
  pid: number | undefined;
  al: string;
  sw: string;
  /** The bootstrap owner's credentials, for what needs a dashboard session. */
  owner: { email: string; password: string } | undefined;
  /** Everything the server wrote so far (stdout and stderr), e.g. its --trace-gc lines. */
  output(): string;
  stop(): Promise<void>;
}

export async function startBenchServer(
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  /** Another checkout's root, to run its server (A/B benches); this checkout's by default. */
  root?: string,
): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-bench-'));
  const bin = root ? join(root, 'bin/parapet') : fileURLToPath(new URL('../../bin/parapet', import.meta.url));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    // serve also starts the network proxy: on an ephemeral port too
    PROXY_PORT: '0',
    LOG_LEVEL: 'warn',
    PARAPET_DATA_DIR: dir,
    // The fake upstreams of the benches listen on loopback (operator base URLs pass the outbound policy).
    PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  };
  // BENCH_NODE_ARGS: V8/Node flags for the server processes of any bench (e.g. a GC setting to compare).
  const extra = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...extra, bin, 'serve'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => {
    out += b.toString();
    if (process.env['BENCH_SERVER_STDERR']) process.stderr.write(b);
  });
  child.stderr!.on('data', (b) => {
    out += b.toString();
    if (process.env['BENCH_SERVER_STDERR']) process.stderr.write(b);
  });
  // Generous: under load the first start also rebuilds build/ from changed sources (ADR 6).
  const deadline = Date.now() + Number(process.env['BENCH_SERVER_START_S'] ?? 180) * 1000;
  // serve writes the API's line and then the network proxy's (with several HTTP workers too).
  while (!/listening on (http:\/\/\S+)/.test(out) || !/network proxy listening on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
  const al = /(al_live_[0-9A-Za-z]{43})/.exec(out)?.[1];
  const sw = /(sw_live_[0-9A-Za-z]{43})/.exec(out)?.[1];
  if (!al || !sw) throw new Error(`no bootstrap keys in the output:\n${out}`);
  return {
    url,
    proxyUrl: /network proxy listening on (http:\/\/\S+?)\/proxy/.exec(out)?.[1],
    pid: child.pid,
    al,
    sw,
    owner: ((m) => (m ? { email: m[1]!, password: m[2]! } : undefined))(
      /user (\S+@\S+)\s+password (\S+)/.exec(out),
    ),
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
