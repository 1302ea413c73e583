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
    setTimeout(() => process.exit(1), graceMs).unref();
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
