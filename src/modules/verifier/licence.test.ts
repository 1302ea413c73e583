import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../platform/clock/index.js';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';
import { createLicenceGate, LICENCE_GRACE_MS } from './index.js';

describe('licence gate', () => {
  // The cloud's wire format (src/modules/licensing: POST /api/v1/license/validate).
  let answer: object = { valid: true, license: { status: 'active' } };
  let status = 200;
  const bodies: string[] = [];
  let server: http.Server;
  let base: string;
  let v: TestVerifier;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        bodies.push(body);
        res.statusCode = status;
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    v = await startTestVerifier({ clock });
  });
  after(async () => {
    await v.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('keeps verifying during the grace period after a revocation, then stops with a clear error', async () => {
    const gate = await createLicenceGate({
      repo: v.ctx.repo,
      clock,
      licenceKey: 'LIC-1',
      tunnelBase: () => base,
    });
    assert.equal((await gate.check()).status, 'valid');
    gate.assertUsable();
    assert.deepEqual(JSON.parse(bodies.at(-1)!), { licenseKey: 'LIC-1' }, 'the route takes licenseKey only');
    answer = { valid: false, reason: 'revoked', license: { status: 'revoked' } };
    assert.equal((await gate.check()).status, 'revoked');
    clock.advance(LICENCE_GRACE_MS - 60_000);
    await gate.check();
    gate.assertUsable();
    clock.advance(120_000);
    assert.throws(
      () => gate.assertUsable(),
      (err: { code?: string; message?: string }) =>
        err.code === 'forbidden' && /revoked.*grace period is over/.test(err.message ?? ''),
    );
    const again = await createLicenceGate({
      repo: v.ctx.repo,
      clock,
      licenceKey: 'LIC-1',
      tunnelBase: () => base,
    });
    assert.throws(() => again.assertUsable(), 'the state survives a restart');
    answer = { valid: true, license: { status: 'active' } };
    await again.check();
    again.assertUsable();
  });

  it('stops after the grace period past the expiry date even when the cloud cannot be asked', async () => {
    const gate = await createLicenceGate({
      repo: v.ctx.repo,
      clock,
      licenceKey: 'LIC-2',
      tunnelBase: () => base,
    });
    answer = { valid: true, license: { status: 'active', expiresAt: clock.now().toISOString() } };
    await gate.check();
    clock.advance(LICENCE_GRACE_MS + 1_000);
    assert.throws(() => gate.assertUsable(), /grace period is over/);
  });

  it('a refused or failed check (429, 400, 500) leaves the licence state as it was', async () => {
    const gate = await createLicenceGate({
      repo: v.ctx.repo,
      clock,
      licenceKey: 'LIC-3',
      tunnelBase: () => base,
    });
    answer = { valid: true, license: { status: 'active' } };
    status = 200;
    assert.equal((await gate.check()).status, 'valid');
    for (const s of [429, 400, 500]) {
      status = s;
      answer = { error: 'rate_limited', message: 'slow down', statusCode: s };
      await assert.rejects(gate.check(), new RegExp(`HTTP ${s}`));
      assert.equal(gate.state().status, 'valid');
      assert.equal(gate.state().invalidSince, null);
    }
    status = 200;
  });

  it('does nothing without a licence key (the verifier runs without the cloud)', async () => {
    const gate = await createLicenceGate({ repo: v.ctx.repo, clock, licenceKey: '', tunnelBase: () => null });
    gate.assertUsable();
    await gate.check(); // no tunnel is needed: nothing is asked
  });
});
