import { ConfigError } from '../platform/config/index.js';

/**
 * Runs `close` once, on SIGTERM or SIGINT or when `stop` is called, then exits 0 (also when closing failed:
 * there is nothing left to do but leave); exits 1 if closing takes longer than `graceMs`.
 */
export function stopOnSignals(
  close: (reason: string) => Promise<void>,
  graceMs: number,
): { stop(reason: string): void; readonly stopping: boolean } {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      // Said once, so that cut streams in the clients' logs have a cause in ours.
      process.stderr.write(
        `parapet: still closing ${Math.round(graceMs / 1000)} s after ${reason}; open requests and streams are cut (PARAPET_STOP_GRACE_SECONDS)\n`,
      );
      process.exit(1);
    }, graceMs).unref();
    close(reason)
      .catch((err: unknown) => {
        // Logged, not rethrown: the process is leaving either way, but a failed close is worth knowing.
        process.stderr.write(`parapet: closing after ${reason} failed: ${(err as Error)?.message ?? err}\n`);
      })
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return {
    stop,
    get stopping() {
      return stopping;
    },
  };
}

/** The address to print for a server listening on `host`: a wildcard address is reached on loopback. */
export function shownUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens on it)',
  EACCES: 'permission denied (a port below 1024 needs the right to bind it: CAP_NET_BIND_SERVICE)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
};

/**
 * Listens, or throws a ConfigError naming the settings to change: Node's own message ("listen
 * EADDRINUSE: address already in use 127.0.0.1:3000") names neither HOST nor the port's variable.
 */
export async function listenOrExplain<T>(
  listen: () => Promise<T>,
  where: { host: string; port: number; portVariable: string },
): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const problem = LISTEN_PROBLEMS[code];
    if (!problem) throw err;
    throw new ConfigError(
      `cannot listen on ${where.host}:${where.port} (HOST, ${where.portVariable}): ${problem} (${code})`,
      { cause: err },
    );
  }
}

/** A server's listen, explained as above: `where.port` on `where.host`. */
export function listenOn(
  app: { listen(o: { port: number; host: string }): Promise<unknown> },
  where: { host: string; port: number; portVariable: string },
): Promise<unknown> {
  return listenOrExplain(() => app.listen({ port: where.port, host: where.host }), where);
}
