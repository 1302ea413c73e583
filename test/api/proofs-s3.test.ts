import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';
import { ManualClock } from '../../src/platform/clock/index.js';
import { newDevice } from '../support/endpoint-cases.js';
import { type TestServer, startTestServer } from '../support/harness.js';
import { proofForm, proofMetadata, proofPdf, sha256 } from '../support/proofs-cases.js';

/** The S3 proof store against a real S3-compatible server on loopback (s3rver from npm). */
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
const dir = mkdtempSync(join(tmpdir(), 's3rver-'));
let s3: S3rver;
let t: TestServer;

const objects = () =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.includes('proof_') && e.name.endsWith('._S3rver_object'),
  ).length;

before(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'proofs' }],
  });
  const { port } = await s3.run();
  t = await startTestServer({
    clock,
    env: {
      PARAPET_PROOF_STORE: 's3://proofs/parapet',
      PARAPET_PROOF_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      PARAPET_PROOF_S3_ACCESS_KEY_ID: 'S3RVER',
      PARAPET_PROOF_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
});
after(async () => {
  await t.close();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('S3 proof store', () => {
  it('puts, downloads, refuses without storing, deletes and expires through the bucket', async () => {
    assert.equal(t.ctx.proofs.storeKind, 's3');
    const a = await t.tenant({ plan: 'business' });
    const dev = await newDevice(t, a);
    const pdf = await proofPdf();
    const up = await t.request('POST', '/api/v1/eps/proof', { key: dev.deviceToken, form: proofForm(pdf) });
    assert.equal(up.status, 201, up.text);
    assert.equal(objects(), 1);
    const dl = await fetch(`${t.url}/api/v1/eps/proof/${up.body.id}?download=1`, {
      headers: { authorization: `Bearer ${a.admin}` },
    });
    assert.equal(dl.status, 200);
    assert.equal(sha256(new Uint8Array(await dl.arrayBuffer())), sha256(pdf));

    const bad = await t.request('POST', '/api/v1/eps/proof', {
      key: dev.deviceToken,
      form: proofForm(pdf, proofMetadata(pdf, { hash: sha256(await proofPdf()) })),
    });
    assert.equal(bad.status, 400);
    assert.equal(objects(), 1);

    const second = await t.request('POST', '/api/v1/eps/proof', {
      key: dev.deviceToken,
      form: proofForm(await proofPdf()),
    });
    assert.equal(second.status, 201);
    assert.equal(
      (await t.request('DELETE', `/api/v1/eps/proof/${up.body.id}`, { key: a.admin })).status,
      200,
    );
    assert.equal(objects(), 1);
    clock.advance(91 * 86_400_000);
    assert.equal(await t.ctx.proofs.purgeExpired(), 1);
    assert.equal(objects(), 0);
  });
});
