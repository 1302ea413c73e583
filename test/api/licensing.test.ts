import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeLicense, encodeLicense } from '../../src/modules/licensing/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { newDevice } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const clock = new ManualClock('2026-06-01T09:00:00.000Z');
let t: TestServer;
let a: Tenant;

before(async () => {
  t = await startTestServer({ clock });
  a = await t.tenant({ plan: 'business' });
});
after(async () => t.close());

const issue = (days = 30, products: Array<'endpoint' | 'onprem'> = ['endpoint', 'onprem']) =>
  t.ctx.licensing.issue({
    orgId: a.org.id,
    plan: 'business',
    seats: 25,
    products,
    features: ['proofs'],
    expiresAt: new Date(clock.now().getTime() + days * 86_400_000).toISOString(),
  });

const validate = (licenseKey: string) =>
  t.request('POST', '/api/v1/license/validate', { body: { licenseKey } });

describe('licences', () => {
  it('one signed format: valid, and its payload readable offline', async () => {
    const { key, license } = await issue();
    assert.match(key, /^plk_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const res = await validate(key);
    assert.equal(res.status, 200);
    assert.equal(res.body.valid, true);
    assert.equal(res.body.license.id, license.id);
    assert.equal(res.body.license.seats, 25);
    assert.deepEqual(res.body.license.products, ['endpoint', 'onprem']);
  });

  it('refuses a tampered payload, a foreign signature and garbage', async () => {
    const { key } = await issue();
    const [body, sig] = key.slice(4).split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `plk_${Buffer.from(JSON.stringify({ ...payload, seats: 100000 })).toString('base64url')}.${sig}`;
    assert.deepEqual((await validate(forged)).body, { valid: false, reason: 'bad_signature', license: null });
    const otherSecret = encodeLicense(Buffer.from('not the server key'), payload);
    assert.equal((await validate(otherSecret)).body.reason, 'bad_signature');
    assert.equal((await validate('plk_nonsense')).body.reason, 'malformed');
    assert.equal(decodeLicense(Buffer.from('x'), 'al_live_abc').ok, false);
  });

  it('expiry and the online revocation list', async () => {
    const short = await issue(1);
    const revoked = await issue();
    await t.ctx.licensing.revoke(a.org.id, revoked.license.id);
    assert.equal((await validate(revoked.key)).body.reason, 'revoked');
    clock.advance(2 * 86_400_000);
    const exp = await validate(short.key);
    assert.equal(exp.body.valid, false);
    assert.equal(exp.body.reason, 'expired');
  });

  it('status lists the caller organization licences; the endpoint validation refuses other organizations', async () => {
    await issue();
    const st = await t.request('GET', '/api/v1/license/status', { key: a.al });
    assert.equal(st.status, 200);
    assert.equal(st.body.licensed, true);
    assert.ok(st.body.licenses.every((l: { organizationId: string }) => l.organizationId === a.org.id));
    const b = await t.tenant({ plan: 'business' });
    const device = await newDevice(t, b);
    const mine = await issue();
    const res = await t.request('POST', '/api/v1/endpoint/license/validate', {
      key: device.deviceToken,
      body: { licenseKey: mine.key },
    });
    assert.equal(res.status, 404);
    const onprem = await issue(30, ['onprem']);
    const own = await t.request('POST', '/api/v1/endpoint/license/validate', {
      key: a.al,
      body: { licenseKey: onprem.key },
    });
    assert.equal(own.body.valid, false);
    // Issued by this server and signed, so not "unknown": it lacks the product (docs/endpoint.md).
    assert.equal(own.body.reason, 'product_not_licensed');
    assert.deepEqual(own.body.license.products, ['onprem']);
  });
});

describe('pattern bundle for an on-premise verifier (POST /api/v1/license/patterns)', () => {
  const patterns = (licenseKey: string) =>
    t.request('POST', '/api/v1/license/patterns', { body: { licenseKey } });

  it("serves the licence holder's DLP patterns and allow-values, versioned by content", async () => {
    const { key } = await issue(30, ['onprem']);
    const empty = await patterns(key);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body.detect, {});
    const cookie = await a.session('admin');
    const put = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie,
      body: {
        allowValues: ['desk@parapet.example'],
        customPatterns: [{ name: 'BADGE', domain: 'CORPORATE', regex: 'BDG-\\d{5}' }],
        blockTypes: ['EMAIL'],
      },
    });
    assert.equal(put.status, 200, put.text);
    const res = await patterns(key);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.detect.allowValues, ['desk@parapet.example']);
    assert.equal(res.headers.get('cache-control'), 'no-store', 'its allow-values are kept by no cache');
    assert.equal(res.body.detect.customPatterns[0].regex, 'BDG-\\d{5}');
    assert.equal(res.body.detect.blockTypes, undefined, 'what the cloud enforces stays in the cloud');
    assert.notEqual(res.body.version, empty.body.version);
    assert.equal((await patterns(key)).body.version, res.body.version, 'same content, same version');
  });

  it('refuses an endpoint-only, revoked or forged licence', async () => {
    const endpointOnly = await issue(30, ['endpoint']);
    assert.equal((await patterns(endpointOnly.key)).status, 403);
    const revoked = await issue(30, ['onprem']);
    await t.ctx.licensing.revoke(a.org.id, revoked.license.id);
    const r = await patterns(revoked.key);
    assert.equal(r.status, 403);
    assert.match(r.body.message, /revoked/);
    assert.equal((await patterns('plk_nonsense')).status, 403);
    assert.equal((await t.request('POST', '/api/v1/license/patterns', { body: {} })).status, 400);
  });
});
