import assert from 'node:assert/strict';
import { type AddressInfo, createServer, isIP } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { providerAddressPolicy } from '../../src/main/context.js';
import { createNetProxy } from '../../src/modules/netproxy/index.js';
import { ConfigError } from '../../src/platform/config/index.js';
import { normalizeHost } from '../../src/platform/net/index.js';
import { type FakeProviderServer, startFakeProviderServer } from '../fakes/provider-server.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { HOSTILE_TARGET_URLS, PLAIN_HTTP_URLS, withPort } from '../support/hostile-urls.js';

// A deployment that does not allow private targets (the default): every user-supplied target goes through
// the one outbound policy, at configuration here and at connection below.
let strict: TestServer;
let owner: Tenant;
let cookie: string;
let fake: FakeProviderServer;

before(async () => {
  fake = await startFakeProviderServer();
  HOSTILE = [...HOSTILE_TARGET_URLS, ...PLAIN_HTTP_URLS].map((u) => withPort(u, fake.port));
  strict = await startTestServer({ env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false' } });
  owner = await strict.tenant({ plan: 'enterprise' });
  cookie = await owner.session('owner');
});
after(async () => {
  await strict.close();
  await fake.close();
});

let HOSTILE: string[] = [];

function refused(res: { status: number; body: any; text: string }, field: RegExp, url: string) {
  assert.equal(res.status, 400, `${url} → ${res.status} ${res.text}`);
  assert.equal(res.body.error, 'invalid_request', url);
  assert.match(res.body.message, field, `${url}: ${res.body.message}`);
  assert.match(res.body.requestId, /^req_/);
}

describe('at configuration: 400 naming the field, for every hostile URL and every kind of target', () => {
  it('provider base URLs', async () => {
    for (const url of HOSTILE) {
      const res = await strict.request('PUT', '/api/dashboard/gateway/providers/openai', {
        cookie,
        body: { apiKey: 'sk-org-key-0123456789', baseUrl: url },
      });
      refused(res, /'baseUrl'/, url);
    }
    const list = await strict.request('GET', '/api/dashboard/gateway/providers', { cookie });
    assert.equal(
      list.body.providers.find((p: { provider: string }) => p.provider === 'openai').configured,
      false,
      'nothing stored',
    );
  });

  it('webhooks, on create and on update', async () => {
    for (const url of HOSTILE) {
      const res = await strict.request('POST', '/api/webhooks', {
        cookie,
        body: { url, events: ['detection.created'] },
      });
      refused(res, /url/, url);
    }
    const ok = await strict.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://hooks.example.com/in', events: ['detection.created'] },
    });
    assert.equal(ok.status, 201, ok.text);
    for (const url of HOSTILE.slice(0, 20)) {
      const res = await strict.request('PATCH', `/api/webhooks/${ok.body.id}`, { cookie, body: { url } });
      refused(res, /url/, url);
    }
  });

  it('SIEM integrations: Splunk, Elastic, OpenSearch, webhook, endpoint override', async () => {
    const bodies: Array<[(url: string) => unknown, RegExp]> = [
      [
        (url) => ({ platform: 'SPLUNK', name: 'S', config: { hecUrl: url, hecToken: 'hec-token-0123' } }),
        /hecUrl/,
      ],
      [(url) => ({ platform: 'ELASTIC', name: 'E', config: { url, username: 'u', password: 'p' } }), /url/],
      [
        (url) => ({
          type: 'OPENSEARCH',
          name: 'O',
          endpoint: url,
          credentials: { username: 'u', password: 'p' },
        }),
        /endpoint/,
      ],
      [(url) => ({ platform: 'WEBHOOK', name: 'W', config: { url } }), /url/],
      [
        // An endpoint next to a harmless hecUrl overrides it in the sink: it is checked too.
        (url) => ({
          platform: 'SPLUNK',
          name: 'S2',
          endpoint: url,
          config: { hecUrl: 'https://splunk.example.com:8088', hecToken: 'hec-token-0123' },
        }),
        /endpoint/,
      ],
    ];
    for (const [body, field] of bodies) {
      for (const url of HOSTILE) {
        const res = await strict.request('POST', '/api/saas/siem/integrations', { cookie, body: body(url) });
        refused(res, field, url);
      }
    }
  });

  it('SIEM targets that are not URLs: syslog hosts, Datadog sites, Elastic Cloud ids', async () => {
    for (const host of [
      'localhost',
      'LOCALHOST.',
      '127.0.0.1',
      '169.254.169.254',
      '::1',
      'db.internal',
      'intranet',
    ]) {
      const res = await strict.request('POST', '/api/saas/siem/integrations', {
        cookie,
        body: { platform: 'SYSLOG', name: 'L', config: { host, port: 514, protocol: 'UDP' } },
      });
      refused(res, /config\.host/, host);
    }
    const site = await strict.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { platform: 'DATADOG', name: 'D', config: { apiKey: 'dd-key', site: 'localhost' } },
    });
    refused(site, /config\.site/, 'site localhost');
    const cloudId = `x:${Buffer.from('127.0.0.1:9243$abc$def').toString('base64')}`;
    const cloud = await strict.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { platform: 'ELASTIC', name: 'C', config: { cloudId, apiKey: 'k' } },
    });
    refused(cloud, /config\.cloudId/, 'cloud id to loopback');
  });

  it('public https targets are accepted', async () => {
    const put = await strict.request('PUT', '/api/dashboard/gateway/providers/mistral', {
      cookie,
      body: { apiKey: 'sk-org-key-0123456789', baseUrl: 'https://API.Mistral.AI./v1' },
    });
    assert.equal(put.status, 200, put.text);
    const siem = await strict.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: {
        platform: 'SPLUNK',
        name: 'S',
        config: { hecUrl: 'https://splunk.example.com:8088', hecToken: 't' },
      },
    });
    assert.equal(siem.status, 201, siem.text);
  });
});

describe('at connection: the provider transport uses the guarded lookup', () => {
  it('a base URL whose name resolves to loopback is refused when the chat connects', async () => {
    // Stored while private targets were allowed (as by a deployment that later turned them off, or a
    // name that resolved elsewhere when it was checked): the connection is what must refuse it.
    const open = await startTestServer({ shareWith: strict, env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'true' } });
    const put = await open.request('PUT', '/api/dashboard/gateway/providers/openai', {
      cookie,
      body: { apiKey: 'sk-org-key-0123456789', baseUrl: `http://localhost:${fake.port}/openai/v1` },
    });
    assert.equal(put.status, 200, put.text);
    await open.close();
    // The last server built sets the process's provider policy; this one does not allow private targets.
    const again = await startTestServer({
      shareWith: strict,
      env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false' },
    });
    try {
      fake.reset();
      const res = await again.request('POST', '/api/v1/gateway/chat', {
        key: owner.sw,
        body: { message: 'hello', routing: { preferredModel: 'openai/gpt-4o-mini' } },
      });
      assert.ok(res.status >= 500, `${res.status} ${res.text}`);
      assert.equal(fake.requests.length, 0, 'the provider key never left for a loopback address');
      assert.equal(res.text.includes('sk-org-key'), false);
    } finally {
      await again.close();
    }
  });
});

describe("the network proxy's upstreams (PARAPET_PROVIDER_<ID>_BASE_URL)", () => {
  it('at start-up: every hostile URL of the table stops the service, naming the variable', async () => {
    for (const url of HOSTILE) {
      await assert.rejects(
        startTestServer({
          shareWith: strict,
          env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false', PARAPET_PROVIDER_OPENAI_BASE_URL: url },
        }),
        (err: Error) =>
          err instanceof ConfigError && err.message.includes('PARAPET_PROVIDER_OPENAI_BASE_URL'),
        url,
      );
    }
  });

  it('at connection: an upstream at an IP literal of the table is refused before any byte is sent', async () => {
    // Any connection to this port, over IPv4 or IPv6, would be a leak: the request carries a provider key.
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '::', r));
    const port = (listener.address() as AddressInfo).port;
    // Plain http, so that a connection the guard let through would be a complete request to the listener.
    const literals = HOSTILE_TARGET_URLS.map((u) => withPort(u, port).replace(/^https:/, 'http:')).filter(
      (u) => {
        const host = URL.canParse(u) ? normalizeHost(new URL(u).hostname) : '';
        return (u.startsWith('http://') && isIP(host) !== 0) || false;
      },
    );
    assert.ok(literals.length >= 40, `${literals.length} IP-literal URLs`);
    // The configuration as a deployment without private targets would have it, had the check at start-up
    // been skipped: what the proxy's transport does with it is what is tested.
    const config = { ...strict.ctx.config, allowPrivateTargets: false };
    try {
      for (const url of literals) {
        const proxy = createNetProxy({
          protection: strict.ctx.gateway.protection,
          assertAllowed: async () => undefined,
          recordUsage: () => undefined,
          baseUrls: { openai: url },
          addressPolicy: providerAddressPolicy({ ...config, providerBaseUrls: { openai: url } }),
          bodyLimit: 1024 * 1024,
        });
        try {
          const caller = { org: owner.org, userId: null, apiKeyId: null, sourceIp: '127.0.0.1' };
          const call = await proxy.prepare(caller, 'openai', 'GET', '/v1/models', {}, undefined);
          await assert.rejects(
            proxy.send(call, new AbortController().signal),
            (err: Error & { code?: string }) => {
              assert.equal(err.code, 'ssrf_blocked', `${url}: ${err.code} ${err.message}`);
              return true;
            },
          );
        } finally {
          await proxy.close();
        }
      }
      assert.equal(connections, 0, 'no connection reached the listener');
    } finally {
      listener.close();
    }
  });
});
