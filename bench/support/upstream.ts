import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The fake provider the gateway and network-proxy benches call, directly and through the server.

/** Starts the fake OpenAI-format upstream (bench/gateway/upstream.ts) in its own process. */
export async function startUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('../gateway/upstream.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b.toString()));
  const deadline = Date.now() + 30_000;
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (Date.now() > deadline) throw new Error('upstream did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: /listening on (http:\/\/\S+)/.exec(out)![1]!, child };
}
