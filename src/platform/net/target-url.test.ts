import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { type CountingServer, startCountingServer } from '../../../test/support/counting-server.js';
import {
  HOSTILE_TARGET_URLS,
  PLAIN_HTTP_URLS,
  REBINDING_NAMES,
  withPort,
} from '../../../test/support/hostile-urls.js';
import { createAddressPolicy } from './address-policy.js';
import { guardedConnector } from './guarded-connector.js';
import type { Resolver } from './guarded-lookup.js';
import { createOutbound } from './outbound.js';
import { OutboundError } from './outbound-error.js';
import { addressOrigin, type TargetKind, targetUrlProblem } from './target-url.js';

const KINDS: readonly TargetKind[] = ['provider', 'webhook', 'siem', 'crawler'];

// A plain HTTP server on loopback that counts connections: a guard that let a hostile target through would
// reach it (hostile URLs use its port; rebinding names resolve to it).
let server: CountingServer;
let port = 0;
before(async () => {
  server = await startCountingServer((_req, res) => res.end('reached'));
  port = server.port;
});
after(async () => server.close());

describe('targetUrlProblem: the outbound policy at configuration', () => {
  it(`has at least 40 hostile URLs in its table (${HOSTILE_TARGET_URLS.length})`, () => {
    assert.ok(HOSTILE_TARGET_URLS.length >= 40);
  });

  for (const kind of KINDS) {
    it(`${kind}: refuses every hostile URL, naming the field`, () => {
      for (const url of HOSTILE_TARGET_URLS) {
        const problem = targetUrlProblem(withPort(url, port), { kind, field: 'target', allowPrivate: false });
        assert.notEqual(problem, null, `${kind} accepted ${url}`);
        assert.match(problem ?? '', /^The field 'target' /, url);
      }
    });
  }

  it('requires https where a secret travels, plain http only for the crawler', () => {
    for (const url of PLAIN_HTTP_URLS) {
      for (const kind of ['provider', 'webhook', 'siem'] as const) {
        assert.match(
          targetUrlProblem(url, { kind, field: 'f', allowPrivate: false }) ?? '',
          /must use https/,
          `${kind} ${url}`,
        );
      }
      assert.equal(targetUrlProblem(url, { kind: 'crawler', field: 'f', allowPrivate: false }), null);
    }
  });

  it('accepts public https targets of every kind', () => {
    for (const kind of KINDS) {
      for (const url of [
        'https://api.openai.com/v1',
        'https://hooks.example.com/in?x=1',
        'https://93.184.216.34:8443/in',
        'https://[2606:4700:4700::1111]/',
        'https://API.Example.COM./v1',
      ]) {
        assert.equal(
          targetUrlProblem(url, { kind, field: 'f', allowPrivate: false }),
          null,
          `${kind} ${url}`,
        );
      }
    }
  });

  it('with private targets allowed (tests, local development): loopback over http, metadata never', () => {
    const opts = { kind: 'siem' as const, field: 'config.hecUrl', allowPrivate: true };
    assert.equal(targetUrlProblem(`http://127.0.0.1:${port}/`, opts), null);
    assert.equal(targetUrlProblem(`http://localhost.:${port}/`, opts), null);
    assert.equal(targetUrlProblem('https://10.0.0.5/', opts), null);
    assert.match(targetUrlProblem('http://10.0.0.5/', opts) ?? '', /must use https/);
    for (const url of [
      'https://169.254.169.254/',
      'https://0xa9fea9fe/',
      'https://metadata.google.internal/',
      'https://0.0.0.0/',
      'https://user:pw@127.0.0.1/',
      'file:///etc/passwd',
    ]) {
      assert.notEqual(targetUrlProblem(url, opts), null, url);
    }
  });

  it('accepts a field-specific extra scheme only where it is declared', () => {
    const base = { kind: 'siem' as const, field: 'endpoint', allowPrivate: false };
    assert.equal(
      targetUrlProblem('prelude://manager.example.com:4690', { ...base, extraSchemes: ['prelude:'] }),
      null,
    );
    assert.notEqual(targetUrlProblem('prelude://manager.example.com:4690', base), null);
    assert.notEqual(
      targetUrlProblem('prelude://127.0.0.1:4690', { ...base, extraSchemes: ['prelude:'] }),
      null,
    );
  });
});

/** Every hostile URL a transport could be asked to open (http/https, no credentials, a host). */
function connectableHostile(): string[] {
  const out: string[] = [];
  for (const raw of HOSTILE_TARGET_URLS) {
    let u: URL;
    try {
      u = new URL(withPort(raw, port));
    } catch {
      continue;
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || !u.hostname)
      continue;
    // Over plain http, so that a connection that got through would be answered by the watched server.
    u.protocol = 'http:';
    if (u.port === '') u.port = String(port);
    out.push(u.toString());
  }
  return out;
}

const rebindingResolver: Resolver = async (hostname) => {
  const hit = REBINDING_NAMES.find(([name]) => name === hostname);
  if (hit) return [{ address: hit[1], family: hit[1].includes(':') ? 6 : 4 }];
  // Every other name (localhost, intranet, printer.local…) resolves to the watched server, as a hostile
  // DNS answer would.
  return [{ address: '127.0.0.1', family: 4 }];
};

describe('the same policy at connection', () => {
  const targets = () => [
    ...connectableHostile(),
    ...REBINDING_NAMES.map(([name]) => `http://${name}:${port}/`),
  ];

  it('node:http transport (webhooks, SIEM): refuses every target without reaching the server', async () => {
    const out = createOutbound({ allowPrivate: false, timeoutMs: 2000, resolver: rebindingResolver });
    const list = targets();
    assert.ok(list.length >= 40, `${list.length} connectable hostile targets`);
    const before = server.connections();
    for (const url of list) {
      await assert.rejects(out.request(url), (err: unknown) => {
        assert.ok(err instanceof OutboundError, `${url}: ${String(err)}`);
        assert.match(err.code, /ssrf_blocked|dns_failed/, `${url}: ${err.message}`);
        return true;
      });
    }
    assert.equal(server.connections(), before, 'no connection may reach the server');
    await out.close();
  });

  it('undici transport (LLM providers): refuses every target without reaching the server', async () => {
    const agent = new Agent({
      connect: guardedConnector(createAddressPolicy({ allowPrivate: false }), {
        resolver: rebindingResolver,
      }),
    });
    const before = server.connections();
    for (const url of targets()) {
      const u = new URL(url);
      await assert.rejects(
        agent.request({ origin: u.origin, path: u.pathname, method: 'POST', body: '{}' }),
        (err: unknown) => {
          assert.ok(err instanceof OutboundError, `${url}: ${String(err)}`);
          assert.equal(err.code, 'ssrf_blocked', `${url}: ${err.message}`);
          return true;
        },
      );
    }
    assert.equal(server.connections(), before, 'no connection may reach the server');
    await agent.close();
  });

  it('a name that the system resolver maps to loopback is refused by the lookup', async () => {
    const agent = new Agent({ connect: guardedConnector(createAddressPolicy({ allowPrivate: false })) });
    await assert.rejects(
      agent.request({ origin: `http://localhost:${port}`, path: '/', method: 'GET' }),
      (err: unknown) => err instanceof OutboundError && err.code === 'ssrf_blocked',
    );
    await agent.close();
    const out = createOutbound({ allowPrivate: false, timeoutMs: 2000 });
    await assert.rejects(
      out.request(`http://localhost:${port}/`),
      (err: unknown) => err instanceof OutboundError && err.code === 'ssrf_blocked',
    );
    await out.close();
  });

  it('both transports connect when private targets are allowed', async () => {
    const agent = new Agent({ connect: guardedConnector(createAddressPolicy({ allowPrivate: true })) });
    const res = await agent.request({ origin: `http://localhost:${port}`, path: '/', method: 'GET' });
    assert.equal(await res.body.text(), 'reached');
    await agent.close();
    const out = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
    assert.equal((await out.request(`http://127.0.0.1:${port}/`)).body, 'reached');
    await out.close();
  });
});

describe('addressOrigin: what a reader who may not use a target sees of it', () => {
  it('keeps the origin, says a path or query followed, and never shows them or credentials', () => {
    const cases: Array<[string, string]> = [
      ['https://hooks.example.com', 'https://hooks.example.com'],
      ['https://hooks.example.com/', 'https://hooks.example.com'],
      ['https://hooks.example.com:8443/services/T0/B0/SECRET', 'https://hooks.example.com:8443/…'],
      ['https://hooks.example.com/?token=SECRET', 'https://hooks.example.com/…'],
      ['https://hooks.example.com/#SECRET', 'https://hooks.example.com/…'],
      ['https://user:SECRET@hooks.example.com/', 'https://hooks.example.com'],
      ['prelude://manager.example.com:4690', 'prelude://manager.example.com:4690'],
      ['prelude://manager.example.com:4690/SECRET', 'prelude://manager.example.com:4690/…'],
      ['not a url SECRET', '…'],
    ];
    for (const [raw, shown] of cases) assert.equal(addressOrigin(raw), shown, raw);
  });
});
