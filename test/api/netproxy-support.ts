import type { AddressInfo } from 'node:net';
import { buildProxy } from '../../src/main/proxy.js';
import type { App } from '../../src/platform/http/index.js';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import type { TestServer } from '../support/harness.js';
import { startGatewayServer } from './gateway-support.js';

/** A test server, a network proxy on an ephemeral port over the same context, and the fake upstream. */
export async function startNetProxy(options: { idleTimeoutMs?: number } = {}): Promise<{
  t: TestServer;
  fake: FakeProviderServer;
  proxy: App;
  proxyUrl: string;
  close(): Promise<void>;
}> {
  const { t, fake } = await startGatewayServer();
  const { app } = await buildProxy(t.ctx, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const proxyUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    t,
    fake,
    proxy: app,
    proxyUrl,
    async close() {
      await app.close();
      await t.close();
      await fake.close();
    },
  };
}
