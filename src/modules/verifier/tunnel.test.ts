import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSshd, type TestSshd } from '../../../test/support/sshd.js';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';
import { openCloudTunnel, type Registration, register } from './index.js';

const LICENCE = 'PARAPET-LIC-test-0001';
const SOURCE = 'Payroll questions go to the HR desk on floor 3. The cafeteria closes at 15:00.';
const CONTEXT = 'My manager Luc Favre asked me where payroll sits';
const RESPONSE =
  'Payroll questions go to the HR desk on floor 3. Send badge requests to anna.muster@example.com before Friday.';

/** The organization's pattern bundle as the cloud serves it: a badge-number pattern and an allowed address. */
const BUNDLE = {
  version: 'b1f0c2d3e4a5b6c7',
  engineVersion: '0.1.0',
  detect: {
    customPatterns: [{ name: 'Badge number', domain: 'CORPORATE', regex: '\\bBDG-\\d{5}\\b' }],
    allowValues: ['servicedesk@example.com'],
  },
};
const BADGE_RESPONSE =
  'Payroll questions go to the HR desk on floor 3. Badge BDG-48213 is replaced by servicedesk@example.com within a day.';

/**
 * The cloud side: an HTTP server that only sshd can reach for the verifier (permitopen), answering the
 * licence check and OpenAI-compatible chat calls, and recording every byte that arrives through the tunnel.
 */
function startCloud() {
  let received = Buffer.alloc(0);
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      // The cloud API's wire format (src/modules/licensing/licensing.routes.ts).
      if (req.url === '/api/v1/license/validate') {
        res.end(
          JSON.stringify({
            valid: true,
            license: { status: 'active', expiresAt: '2027-12-31T00:00:00.000Z' },
          }),
        );
        return;
      }
      if (req.url === '/api/v1/license/patterns') {
        res.end(JSON.stringify(BUNDLE));
        return;
      }
      const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> };
      const lines = parsed.messages.find((m) => m.role === 'user')!.content.split('\n');
      res.end(
        JSON.stringify({
          choices: [
            {
              message: { role: 'assistant', content: JSON.stringify({ verdicts: lines.map(() => 'true') }) },
            },
          ],
        }),
      );
    });
  });
  server.on('connection', (socket) =>
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    }),
  );
  return {
    bytes: () => received,
    reset() {
      received = Buffer.alloc(0);
    },
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return (server.address() as AddressInfo).port;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('the SSH tunnel to the cloud (real sshd)', () => {
  const cloud = startCloud();
  let cloudPort: number;
  let sshd: TestSshd;
  let v: TestVerifier;
  let registration: Registration;

  before(async () => {
    cloudPort = await cloud.start();
    sshd = await startSshd(`127.0.0.1:${cloudPort}`);
    const tunnelled = (i: number) => ({
      name: `cloud-${i}`,
      baseUrl: 'http://models.cloud.invalid/v1',
      model: `cloud-model-${i}`,
      viaTunnel: true,
    });
    v = await startTestVerifier({
      env: { PARAPET_VERIFIER_LICENSE: LICENCE },
      models: [0, 1, 2, 3, 4].map(tunnelled),
      connectCloud: true,
      async prepare(repo, sealer) {
        const first = await register(repo, sealer, {
          host: '127.0.0.1',
          port: sshd.port,
          username: sshd.user,
          apiHost: '127.0.0.1',
          apiPort: cloudPort,
          expectedFingerprint: sshd.hostKeyFingerprint,
          at: '2026-01-01T00:00:00.000Z',
        });
        assert.equal(first.authorized, false, 'the cloud does not know the new key yet');
        registration = first.registration;
        sshd.authorize([
          `restrict,port-forwarding,permitopen="127.0.0.1:${cloudPort}" ${registration.publicKey}`,
        ]);
      },
    });
    writeFileSync(join(v.docsDir, 'hr.txt'), SOURCE);
    const src = await v.request('POST', '/api/sources', {
      key: v.admin,
      body: { type: 'file', url: join(v.docsDir, 'hr.txt') },
    });
    await v.settled(src.body.id);
    await v.request('POST', `/api/sources/${src.body.id}/validate`, { key: v.admin });
  });
  after(async () => {
    await v?.close();
    await sshd?.close();
    await cloud.close();
  });

  it('registration stored the host key the cloud presented and an Ed25519 key pair', () => {
    assert.equal(registration.hostKeyFingerprint, sshd.hostKeyFingerprint);
    assert.match(registration.publicKey, /^ssh-ed25519 AAAA/);
    assert.ok(v.ctx.tunnel, 'the tunnel is up');
  });

  it('the licence check goes through the tunnel and carries the licence key only', async () => {
    cloud.reset();
    const state = await v.ctx.licence.check();
    assert.equal(state.status, 'valid');
    const seen = cloud.bytes().toString('utf8');
    assert.match(seen, /^POST \/api\/v1\/license\/validate HTTP\/1\.1\r\n/);
    assert.ok(seen.endsWith(JSON.stringify({ licenseKey: LICENCE })));
  });

  it('with multi-LLM off, not one byte crosses the tunnel during verification', async () => {
    cloud.reset();
    const bytesBefore = v.ctx.tunnel!.bytesSent;
    const r = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: RESPONSE, context: CONTEXT, options: { multiLlm: false } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.claims.length, 2);
    assert.equal(cloud.bytes().length, 0);
    assert.equal(v.ctx.tunnel!.bytesSent, bytesBefore);
  });

  it('with multi-LLM on, only the undecided claim crosses, tokenized', async () => {
    cloud.reset();
    const r = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: RESPONSE, context: CONTEXT, options: { multiLlm: true, llmCount: 5 } },
    });
    assert.equal(r.status, 200, r.text);
    const [payroll, badge] = r.body.claims;
    assert.equal(payroll.decidedBy, 'validated_source');
    assert.equal(badge.decidedBy, 'llm_consensus');
    assert.equal(badge.confidence, 80);

    const seen = cloud.bytes().toString('utf8');
    const requests = seen.split(/(?=POST \/)/).filter(Boolean);
    assert.equal(requests.length, 5, 'one request per model');
    for (const req of requests) {
      assert.match(req, /^POST \/v1\/chat\/completions HTTP\/1\.1\r\n/);
      const body = JSON.parse(req.slice(req.indexOf('\r\n\r\n') + 4)) as {
        messages: Array<{ role: string; content: string }>;
      };
      const user = body.messages.find((m) => m.role === 'user')!.content;
      assert.match(user, /^1\. Send badge requests to TKN_EMAIL_[0-9a-z]+ before Friday$/);
    }
    for (const secret of ['anna.muster', 'Luc Favre', 'manager', 'Payroll', 'floor 3', 'cafeteria'])
      assert.ok(!seen.includes(secret), `${secret} never crosses the tunnel`);
  });

  it('a pattern update sends the licence key only, and the bundle that arrives is applied to the claims', async () => {
    // Before any update, the badge number is not personal data and the address is tokenized like any other.
    cloud.reset();
    let r = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: BADGE_RESPONSE, options: { multiLlm: true, llmCount: 5 } },
    });
    assert.equal(r.status, 200, r.text);
    let sent = cloud.bytes().toString('utf8');
    assert.ok(sent.includes('BDG-48213'), 'no custom pattern yet');
    assert.ok(!sent.includes('servicedesk@example.com'), 'an address is tokenized by default');

    cloud.reset();
    const bytesBefore = v.ctx.tunnel!.bytesSent;
    const update = await v.ctx.patterns.update();
    assert.equal(update.changed, true);
    assert.equal(update.patterns.version, BUNDLE.version);
    const seen = cloud.bytes().toString('utf8');
    const requests = seen.split(/(?=POST \/)/).filter(Boolean);
    assert.equal(requests.length, 1, 'one request');
    assert.match(requests[0]!, /^POST \/api\/v1\/license\/patterns HTTP\/1\.1\r\n/);
    assert.equal(
      requests[0]!.slice(requests[0]!.indexOf('\r\n\r\n') + 4),
      JSON.stringify({ licenseKey: LICENCE }),
    );
    assert.equal(
      v.ctx.tunnel!.bytesSent - bytesBefore,
      Buffer.byteLength(seen),
      'the recorder saw every byte',
    );
    for (const secret of [
      'Payroll',
      'floor 3',
      'cafeteria',
      'anna.muster',
      'Luc Favre',
      'BDG-',
      'servicedesk',
    ])
      assert.ok(!seen.includes(secret), `${secret} does not cross with a pattern update`);
    assert.equal((await v.ctx.patterns.update()).changed, false, 'the same bundle again changes nothing');

    cloud.reset();
    r = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: BADGE_RESPONSE, options: { multiLlm: true, llmCount: 5 } },
    });
    assert.equal(r.status, 200, r.text);
    sent = cloud.bytes().toString('utf8');
    const bodies = sent.split(/(?=POST \/)/).filter(Boolean);
    assert.equal(bodies.length, 5);
    for (const req of bodies) {
      const body = JSON.parse(req.slice(req.indexOf('\r\n\r\n') + 4)) as {
        messages: Array<{ role: string; content: string }>;
      };
      const user = body.messages.find((m) => m.role === 'user')!.content;
      assert.match(user, /TKN_[A-Z_]*BADGE_NUMBER_[0-9a-z]+/, 'the custom pattern applies');
      assert.ok(user.includes('servicedesk@example.com'), 'the allow-value applies');
      assert.ok(!user.includes('BDG-48213'));
    }
  });

  it('refuses a cloud whose host key differs from the registered one', async () => {
    await assert.rejects(
      openCloudTunnel({
        ...registration,
        hostKeyFingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      }),
    );
  });

  it('cannot reach anything but the permitted API port through the cloud sshd', async () => {
    const other = http.createServer((_req, res) => res.end('reached'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const tunnel = await openCloudTunnel({ ...registration, apiPort: (other.address() as AddressInfo).port });
    try {
      await assert.rejects(fetch(`${tunnel.baseUrl}/`));
    } finally {
      await tunnel.close();
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});
