import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Clock, ManualClock } from '../../src/platform/clock/index.js';
import { registerOverHttp, validDns, validPolicy } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { detection } from '../support/shadow-ai-cases.js';

// A clock that stands still: the one-second state cache of a server never expires by itself, so a server
// that read the settings once keeps that copy for the whole test (the worst case of CACHE_MS).
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
let t: TestServer;
let peer: TestServer;

before(async () => {
  t = await startTestServer({ clock });
  // A second API server on the same database (and Redis prefix), with its own state cache.
  peer = await startTestServer({ shareWith: t, clock });
});
after(async () => {
  await peer.close();
  await t.close();
});

const register = (tenant: Tenant, body: Record<string, unknown> = {}) => registerOverHttp(t, tenant, body);

const heartbeat = (token: string, body: unknown = {}) =>
  t.request('POST', '/api/v1/endpoint/heartbeat', { key: token, body });

describe('concurrent changes', () => {
  it('three concurrent policy PATCHes each apply their own field over the latest row', async () => {
    const a = await t.tenant({ plan: 'business' });
    // Several rounds: one round could let the requests run one after the other by chance.
    for (let round = 0; round < 5; round++) {
      const created = await t.request('POST', '/api/saas/endpoint/policies', {
        key: a.admin,
        body: { ...validPolicy(`Policy ${round}`), enforcement: 'warn', enabled: true },
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body.policy.id as string;
      const patch = (body: unknown, via: TestServer) =>
        via.request('PATCH', `/api/saas/endpoint/policies/${id}`, { key: a.admin, body });
      const [named, disabled, blocking] = await Promise.all([
        patch({ name: `Renamed ${round}` }, t),
        patch({ enabled: false }, peer),
        patch({ enforcement: 'block' }, t),
      ]);
      for (const r of [named, disabled, blocking]) assert.equal(r.status, 200, r.text);
      // Each answer shows the state its change produced: its own field at least.
      assert.equal(named.body.policy.name, `Renamed ${round}`);
      assert.equal(disabled.body.policy.enabled, false);
      assert.equal(blocking.body.policy.enforcement, 'block');
      const list = await t.request('GET', '/api/saas/endpoint/policies', { key: a.admin });
      const stored = list.body.policies.find((p: { id: string }) => p.id === id);
      assert.deepEqual(
        { name: stored.name, enabled: stored.enabled, enforcement: stored.enforcement },
        { name: `Renamed ${round}`, enabled: false, enforcement: 'block' },
        `round ${round}`,
      );
    }
  });

  it('settings posted on two servers, one after the other, both stay (no merge over a cached copy)', async () => {
    const a = await t.tenant({ plan: 'business' });
    const cookie = await a.session('admin');
    const settings = (via: TestServer) => via.request('GET', '/api/dashboard/endpoint/settings', { cookie });
    const post = (via: TestServer, body: unknown) =>
      via.request('POST', '/api/dashboard/endpoint/settings', { cookie, body });
    // The first server reads (and caches) the settings; the second changes one; the first changes another.
    assert.equal((await settings(t)).body.heartbeatIntervalSeconds, 60);
    const first = await post(peer, { heartbeatIntervalSeconds: 120 });
    assert.equal(first.status, 200, first.text);
    const second = await post(t, { offlineAfterMinutes: 30 });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.heartbeatIntervalSeconds, 120, 'the answer shows the state it produced');
    assert.equal(second.body.offlineAfterMinutes, 30);
    const stored = (await settings(peer)).body;
    assert.equal(stored.heartbeatIntervalSeconds, 120);
    assert.equal(stored.offlineAfterMinutes, 30);
  });

  it('concurrent settings posts on two servers keep every field', async () => {
    const a = await t.tenant({ plan: 'business' });
    const cookie = await a.session('admin');
    const post = (via: TestServer, body: unknown) =>
      via.request('POST', '/api/dashboard/endpoint/settings', { cookie, body });
    const answers = await Promise.all([
      post(t, { heartbeatIntervalSeconds: 90 }),
      post(peer, { offlineAfterMinutes: 45 }),
      post(t, { defaultEnforcement: 'block' }),
      post(peer, { requireUserBinding: true }),
    ]);
    for (const r of answers) assert.equal(r.status, 200, r.text);
    const versions = answers.map((r) => r.body.configVersion as number);
    assert.equal(new Set(versions).size, 4, `each change has its own config version: ${versions}`);
    const stored = (await peer.request('GET', '/api/dashboard/endpoint/settings', { cookie })).body;
    assert.deepEqual(
      {
        heartbeatIntervalSeconds: stored.heartbeatIntervalSeconds,
        offlineAfterMinutes: stored.offlineAfterMinutes,
        defaultEnforcement: stored.defaultEnforcement,
        requireUserBinding: stored.requireUserBinding,
      },
      {
        heartbeatIntervalSeconds: 90,
        offlineAfterMinutes: 45,
        defaultEnforcement: 'block',
        requireUserBinding: true,
      },
    );
  });
});

describe('DNS configuration', () => {
  it('the default of GET can be saved back as it is, and says what the block page answers', async () => {
    const a = await t.tenant({ plan: 'business' });
    const got = await t.request('GET', '/api/saas/endpoint/dns-config', { key: a.admin });
    assert.equal(got.status, 200, got.text);
    const page = await t.request('GET', `/api/v1/endpoint/block-page?org=${a.org.id}`);
    assert.equal(page.status, 404);
    assert.equal(got.body.blockPage.enabled, false, 'the default names the block page off, as it is');
    const { updatedAt: _, ...body } = got.body;
    const saved = await t.request('POST', '/api/saas/endpoint/dns-config', { key: a.admin, body });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body.blockPage, got.body.blockPage);
  });

  it('a disabled block page needs neither message nor contact; an enabled one needs a message', async () => {
    const a = await t.tenant({ plan: 'business' });
    const post = (blockPage: unknown) =>
      t.request('POST', '/api/saas/endpoint/dns-config', {
        key: a.admin,
        body: { ...validDns(), blockPage },
      });
    const off = await post({ enabled: false });
    assert.equal(off.status, 200, off.text);
    assert.deepEqual(off.body.blockPage, { enabled: false, message: '', contactEmail: '' });
    const blank = await post({ enabled: true, message: '  ', contactEmail: '' });
    assert.equal(blank.status, 400, blank.text);
    assert.match(blank.body.message, /blockPage\.message/);
    const badMail = await post({ enabled: true, message: 'Blocked.', contactEmail: 'not a mail' });
    assert.equal(badMail.status, 400, badMail.text);
    assert.match(badMail.body.message, /blockPage\.contactEmail/);
    const noContact = await post({ enabled: true, message: 'Blocked here.', contactEmail: '' });
    assert.equal(noContact.status, 200, noContact.text);
    const page = await t.request('GET', `/api/v1/endpoint/block-page?org=${a.org.id}`);
    assert.equal(page.status, 403);
    assert.match(page.text, /Blocked here\./);
    assert.doesNotMatch(page.text, /mailto:/, 'no contact line without an address');
  });

  it("POST's updatedAt is the stored one", async () => {
    // A clock that moves on every reading: the answer's time and the stored one differ if read twice.
    let ms = Date.parse('2026-06-01T09:00:00.000Z');
    const ticking: Clock = { now: () => new Date(ms++) };
    const own = await startTestServer({ clock: ticking });
    try {
      const a = await own.tenant({ plan: 'business' });
      const saved = await own.request('POST', '/api/saas/endpoint/dns-config', {
        key: a.admin,
        body: validDns(),
      });
      assert.equal(saved.status, 200, saved.text);
      const got = await own.request('GET', '/api/saas/endpoint/dns-config', { key: a.admin });
      assert.equal(saved.body.updatedAt, got.body.updatedAt);
    } finally {
      await own.close();
    }
  });
});

describe('hosts reported by devices', () => {
  it('a bracketed host must be an IPv6 address; its spellings are one service', async () => {
    const a = await t.tenant({ plan: 'business' });
    const d = await register(a);
    for (const bad of ['[....]', '[:::::]', '[1::2::3]', '[12345::1]']) {
      const res = await heartbeat(d.deviceToken, { stats: { interactions: { [bad]: 1 } } });
      assert.equal(res.status, 400, `${bad}: ${res.text}`);
    }
    const ok = await heartbeat(d.deviceToken, {
      stats: { interactions: { '[fd00:0:0::5]': 2, '[FD00::5]': 3, '[::ffff:10.0.0.1]': 1 } },
    });
    assert.equal(ok.status, 200, ok.text);
    const stats = await t.request('GET', '/api/saas/endpoint/stats', { key: a.admin });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual(stats.body.interactions.byService, { '[fd00::5]': 5, '[::ffff:a00:1]': 1 });

    const dev = await register(a);
    const report = (reportId: string, domains: string[]) =>
      t.request('POST', '/api/v1/endpoint/shadow-ai/report', {
        key: dev.deviceToken,
        body: { reportId, detections: domains.map((x) => detection(x, ['ai_headers'], 2, clock.now())) },
      });
    const bad = await report('r-bad', ['[:::::]']);
    assert.equal(bad.status, 400, bad.text);
    assert.equal((await report('r-1', ['[FD00:0:0::7]'])).status, 200);
    assert.equal((await report('r-2', ['[fd00::7]'])).status, 200);
    const list = await t.request('GET', '/api/dashboard/shadow-ai/services', {
      cookie: await a.session('viewer'),
    });
    const v6 = list.body.services.filter((s: { domain: string }) => s.domain.startsWith('['));
    assert.deepEqual(
      v6.map((s: { domain: string; usageCount: number }) => [s.domain, s.usageCount]),
      [['[fd00::7]', 4]],
    );
  });

  it('os and browser follow the rule of the device name (no control characters, no bidi overrides)', async () => {
    const a = await t.tenant({ plan: 'business' });
    const refused = await t.request('POST', '/api/v1/endpoint/register', {
      key: a.al,
      body: { name: 'Laptop', os: 'mac\u202eOS' },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.message, /os/);
    const d = await register(a);
    for (const body of [{ browser: 'Chrome\u0007141' }, { os: 'Linux\n6.1' }, { browser: 'x\u2066y' }]) {
      const res = await heartbeat(d.deviceToken, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    }
  });
});

/** Sets allowedExtensionVersions for a new tenant's organization; the answer of the save. */
async function allowing(versions: string[], a?: Tenant) {
  const tenant = a ?? (await t.tenant({ plan: 'business' }));
  const cookie = await tenant.session('admin');
  const res = await t.request('POST', '/api/dashboard/endpoint/settings', {
    cookie,
    body: { allowedExtensionVersions: versions },
  });
  return { tenant, res };
}

describe('extension versions', () => {
  it('a heartbeat without extensionVersion is judged on the version the device last reported', async () => {
    const { tenant: a, res: set } = await allowing(['1.4.*']);
    assert.equal(set.status, 200, set.text);
    const old = await register(a, { extensionVersion: '1.3.0' });
    const silent = await heartbeat(old.deviceToken, {});
    assert.equal(silent.status, 200, silent.text);
    assert.equal(silent.body.updateRequired, true, 'the registered 1.3.0 is not allowed');
    const current = await register(a, { extensionVersion: '1.4.2' });
    assert.equal((await heartbeat(current.deviceToken, {})).body.updateRequired, false);
    // A version reported in a heartbeat, not yet written to the database, counts too.
    assert.equal(
      (await heartbeat(current.deviceToken, { extensionVersion: '1.2.0' })).body.updateRequired,
      true,
    );
    assert.equal((await heartbeat(current.deviceToken, {})).body.updateRequired, true);
  });

  it('allowedExtensionVersions refuses a * anywhere but at the end, naming the rule', async () => {
    const a = await t.tenant({ plan: 'business' });
    for (const bad of ['1.*.5', '1.*.*']) {
      const { res } = await allowing(['1.4.0', bad], a);
      assert.equal(res.status, 400, `${bad}: ${res.text}`);
      assert.match(res.body.message, /allowedExtensionVersions\[1\].*\* may only be the last part/);
    }
    for (const good of ['1.*', '1.4.*', '2.0.1', '3']) {
      const { res } = await allowing([good], a);
      assert.equal(res.status, 200, `${good}: ${res.text}`);
    }
  });
});

describe('device credentials', () => {
  it('a device token on proof reads is 403 naming the credential, not 401 "invalid API key"', async () => {
    const a = await t.tenant({ plan: 'business' });
    const d = await register(a);
    for (const path of ['/api/v1/eps/proof/list', '/api/v1/eps/proof/proof_nothere']) {
      const res = await t.request('GET', path, { key: d.deviceToken });
      assert.equal(res.status, 403, `${path}: ${res.text}`);
      assert.equal(res.body.error, 'forbidden');
      assert.match(res.body.message, /dashboard session or an API key of the admin scope/);
      assert.match(res.body.message, /device token/);
    }
  });

  it('If-None-Match: * on the config answers 304', async () => {
    const a = await t.tenant({ plan: 'business' });
    const d = await register(a);
    const res = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': '*' },
    });
    assert.equal(res.status, 304, res.text);
    assert.match(res.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
  });
});
