import type { AddressInfo } from 'node:net';
import { after, before, beforeEach } from 'node:test';
import { buildProxy } from '../../src/main/proxy.js';
import type { App } from '../../src/platform/http/index.js';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant, TestServer } from '../support/harness.js';
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

/**
 * The common set-up of a network proxy test file: one proxy and fake upstream for the file, one tenant,
 * the fake reset before each test. The fields are filled once `before` has run.
 */
export function netProxySuite(tenantName: string): {
  env: Awaited<ReturnType<typeof startNetProxy>>;
  fake: FakeProviderServer;
  mine: Tenant;
  /** The proxy's `/proxy` URL, to which each provider's name is added. */
  base: string;
  serviceHeaders(): Record<string, string>;
} {
  const s = {
    serviceHeaders: () => ({ 'x-service-key': s.mine.al, 'x-service-organization': s.mine.org.id }),
  } as unknown as ReturnType<typeof netProxySuite>;
  before(async () => {
    s.env = await startNetProxy();
    s.fake = s.env.fake;
    s.mine = await s.env.t.tenant({ name: tenantName });
    s.base = `${s.env.proxyUrl}/proxy`;
  });
  after(async () => s.env.close());
  beforeEach(() => s.fake.reset());
  return s;
}

/**
 * Parapet's own error on the network proxy (docs/netproxy.md, Errors): the code and the message, from the
 * spec's Error body (the default) or from the provider's error format (`errorFormat: native`).
 */
export async function parapetError(res: Response): Promise<{ code: string; message: string; body: any }> {
  const body = (await res.json()) as any;
  const e = body.error;
  if (typeof e === 'string') return { code: e, message: body.message, body };
  if (e && typeof e === 'object') {
    // OpenAI, Groq and Anthropic: error.code; Gemini: the ErrorInfo reason.
    return { code: e.details?.[0]?.reason ?? e.code, message: e.message, body };
  }
  // Cohere and Mistral: flat.
  return { code: body.code, message: body.message, body };
}

/** Sets the organization's network proxy `errorFormat` (an administrator's PUT, the other settings kept). */
export async function setErrorFormat(t: TestServer, tenant: Tenant, errorFormat: 'spec' | 'native') {
  const cookie = await tenant.session('admin');
  const current = await t.request('GET', '/api/dashboard/netproxy/settings', { cookie });
  const res = await t.request('PUT', '/api/dashboard/netproxy/settings', {
    cookie,
    body: { clientNetworks: (current.body as { clientNetworks: string[] }).clientNetworks, errorFormat },
  });
  if (res.status !== 200) throw new Error(`errorFormat: ${res.status} ${res.text}`);
  return res.body as { errorFormat: string };
}
