import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server on loopback that counts connections: an SSRF guard that let a target through reaches it. */
export interface CountingServer {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startCountingServer(handler: http.RequestListener): Promise<CountingServer> {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
