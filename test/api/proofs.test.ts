import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type ProofStore, createDiskStore, createProofsService } from '../../src/modules/proofs/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { newDevice } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { proofForm, proofMetadata, proofPdf, sha256 } from '../support/proofs-cases.js';

const MAX = 64 * 1024;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
let t: TestServer;
let a: Tenant;
let b: Tenant;
let token: string;

before(async () => {
  t = await startTestServer({ clock, env: { PARAPET_PROOF_MAX_BYTES: String(MAX) } });
  a = await t.tenant({ name: 'A', plan: 'business' });
  b = await t.tenant({ name: 'B', plan: 'business' });
  token = (await newDevice(t, a)).deviceToken;
});
after(async () => t.close());

const upload = (form: FormData, key = token) => t.request('POST', '/api/v1/eps/proof', { key, form });
const raw = (body: Buffer | string, contentType: string) =>
  t.request('POST', '/api/v1/eps/proof', {
    key: token,
    rawBody: body,
    headers: { 'content-type': contentType },
  });
const files = (dir: string): string[] => {
  const p = join(t.ctx.config.dataDir, dir);
  if (!existsSync(p)) return [];
  return readdirSync(p, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};
const rows = async () =>
  Number(
    (
      await t.ctx.storage.db
        .selectFrom('proofs')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const snapshot = async () => ({
  rows: await rows(),
  stored: files('proofs').length,
  spool: files('proofs-spool').length,
});

/** The data of the organization A's latest proof.risk_mismatch event. */
async function lastRiskMismatch(): Promise<Record<string, any>> {
  const ev = await t.ctx.storage.db
    .selectFrom('events')
    .selectAll()
    .where('org_id', '=', a.org.id)
    .where('type', '=', 'proof.risk_mismatch')
    .execute();
  return JSON.parse(ev.at(-1)!.data);
}

function assertSpecError(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error, code);
  assert.equal(res.body.statusCode, status);
  assert.equal(typeof res.body.message, 'string');
  assert.equal(typeof res.body.requestId, 'string');
}

/** A multipart body written by hand, for the malformed variants fetch would never send. */
function multipart(
  boundary: string,
  parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>,
) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
const goodParts = (pdf: Uint8Array, meta: unknown = proofMetadata(pdf)) => [
  { name: 'file', filename: 'proof.pdf', type: 'application/pdf', data: Buffer.from(pdf) },
  { name: 'metadata', data: JSON.stringify(meta) },
];

describe('upload', () => {
  it('stores a checked proof: 201 with proof_ id, uploadedAt, retentionDays 90, expiresAt', async () => {
    const pdf = await proofPdf();
    const res = await upload(proofForm(pdf));
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^proof_/);
    assert.equal(res.body.uploadedAt, clock.now().toISOString());
    assert.equal(res.body.retentionDays, 90);
    assert.equal(res.body.expiresAt, new Date(clock.now().getTime() + 90 * 86_400_000).toISOString());
    assert.equal(res.body.riskScoreMismatch, false);

    const meta = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, { key: a.admin });
    assert.equal(meta.status, 200);
    assert.equal(meta.body.hash, sha256(pdf));
    assert.equal(meta.body.metadata.riskScore, 23);
    assert.equal(meta.body.computedRiskScore, 23);
    const dl = await fetch(`${t.url}/api/v1/eps/proof/${res.body.id}?download=1`, {
      headers: { authorization: `Bearer ${a.admin}` },
    });
    assert.equal(dl.status, 200);
    assert.equal(dl.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(new Uint8Array(await dl.arrayBuffer()), pdf);
    const viaSession = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, {
      cookie: await a.session('admin'),
    });
    assert.equal(viaSession.status, 200);
    const member = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, {
      cookie: await a.session('member'),
    });
    assert.equal(member.status, 403);
    assert.equal((await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, { key: b.admin })).status, 404);
  });

  it('is read, downloaded, listed and deleted by an admin only: a products key gets 403 and the proof stays', async () => {
    // SPEC marks get, list and delete as admin operations; a products key is what applications hold to
    // call detection or tokenization, and used to read and delete the organization's evidence.
    const res = await upload(proofForm(await proofPdf()));
    assert.equal(res.status, 201, res.text);
    for (const key of [a.al, a.sw]) {
      for (const [method, path] of [
        ['GET', `/api/v1/eps/proof/${res.body.id}`],
        ['GET', `/api/v1/eps/proof/${res.body.id}?download=1`],
        ['GET', '/api/v1/eps/proof/list'],
        ['DELETE', `/api/v1/eps/proof/${res.body.id}`],
      ] as const) {
        const r = await t.request(method, path, { key });
        assertSpecError(r, 403, 'forbidden');
        assert.match(r.body.message, /admin scope/);
      }
    }
    const still = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, { key: a.admin });
    assert.equal(still.status, 200, still.text);
  });

  it('refuses a hash mismatch with 400 and stores nothing', async () => {
    const before = await snapshot();
    const pdf = await proofPdf();
    const other = await proofPdf();
    const res = await upload(proofForm(pdf, proofMetadata(pdf, { hash: sha256(other) })));
    assertSpecError(res, 400, 'invalid_request');
    assert.match(res.body.message, /metadata\.hash does not match/);
    assert.deepEqual(await snapshot(), before);
  });

  it('refuses what is not a PDF: wrong magic bytes, no trailer, unparseable body', async () => {
    const before = await snapshot();
    const text = new TextEncoder().encode('hello, not a pdf at all');
    const noEof = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\n');
    const garbage = new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(200)}\n%%EOF\n`);
    for (const [bytes, re] of [
      [text, /does not start with %PDF-/],
      [noEof, /no %%EOF/],
      [garbage, /not a readable PDF|without pages/],
    ] as const) {
      const res = await upload(proofForm(bytes, proofMetadata(bytes)));
      assertSpecError(res, 400, 'invalid_request');
      assert.match(res.body.message, re);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('flags a forged risk score: stored with riskScoreMismatch and a proof.risk_mismatch event', async () => {
    const pdf = await proofPdf();
    const res = await upload(
      proofForm(pdf, proofMetadata(pdf, { riskScore: 5, tokenTypes: ['IBAN', 'CVV'] })),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.riskScoreMismatch, true);
    const view = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, { key: a.admin });
    assert.equal(view.body.computedRiskScore, 100);
    const data = await lastRiskMismatch();
    assert.equal(data.proofId, res.body.id);
    assert.equal(data.declaredRiskScore, 5);
    assert.equal(data.computedRiskScore, 100);
    assert.deepEqual(data.tokenTypes, ['CVV', 'IBAN']);
    // tokenTypes must agree with tokenCount
    const bad = await upload(proofForm(pdf, proofMetadata(pdf, { tokenCount: 3 })));
    assertSpecError(bad, 400, 'invalid_request');
    assert.match(bad.body.message, /tokenTypes/);
  });

  it("keeps and publishes the device's free text (platform, tier) with personal data replaced by its type", async () => {
    // Audit finding: an e-mail address in `platform` went to the SIEM with proof.risk_mismatch.
    const pdf = await proofPdf();
    const sent = () =>
      proofForm(
        pdf,
        proofMetadata(pdf, {
          riskScore: 5,
          tokenTypes: ['IBAN', 'CVV'],
          platform: 'chatgpt.com proof.marker@example.org',
          tier: 'DE89 3704 0044 0532 0130 00',
        }),
      );
    const res = await upload(sent());
    assert.equal(res.status, 201, res.text);
    const view = await t.request('GET', `/api/v1/eps/proof/${res.body.id}`, { key: a.admin });
    assert.equal(view.body.metadata.platform, 'chatgpt.com [EMAIL]');
    assert.equal(view.body.metadata.tier, '[IBAN]');
    const data = await lastRiskMismatch();
    assert.equal(data.proofId, res.body.id);
    assert.equal(data.platform, 'chatgpt.com [EMAIL]');
    const stored = await t.ctx.storage.db.selectFrom('proofs').select('metadata').execute();
    for (const r of stored) {
      assert.doesNotMatch(r.metadata, /proof\.marker|3704 0044/, 'no value stored');
    }
    // A retry of the same upload (same device, same metadata as sent) finds its stored proof.
    const again = await upload(sent());
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, res.body.id);
  });

  it('refuses bad metadata naming the field', async () => {
    const pdf = await proofPdf();
    const res = await upload(proofForm(pdf, proofMetadata(pdf, { riskScore: 101 })));
    assertSpecError(res, 400, 'invalid_request');
    assert.match(res.body.message, /riskScore/);
    const notJson = await upload(proofForm(pdf, '{not json'));
    assertSpecError(notJson, 400, 'invalid_request');
    assert.match(notJson.body.message, /metadata/);
  });
});

describe('fuzzed multipart bodies get the error body and store nothing', () => {
  it('truncated, huge, wrong boundary, two files, missing parts, unknown parts, not multipart', async () => {
    const before = await snapshot();
    const pdf = await proofPdf();
    const body = multipart('BOUNDARY1', goodParts(pdf));
    const ct = 'multipart/form-data; boundary=BOUNDARY1';
    const cases: Array<[string, Promise<any>, number, string]> = [
      ['truncated', raw(body.subarray(0, Math.floor(body.length / 2)), ct), 400, 'invalid_request'],
      ['truncated in headers', raw(body.subarray(0, 30), ct), 400, 'invalid_request'],
      [
        'huge file',
        raw(
          multipart('B', [
            { name: 'file', filename: 'p.pdf', data: Buffer.alloc(MAX * 3, 0x25) },
            goodParts(pdf)[1]!,
          ]),
          'multipart/form-data; boundary=B',
        ),
        413,
        'payload_too_large',
      ],
      ['wrong boundary', raw(body, 'multipart/form-data; boundary=OTHER'), 400, 'invalid_request'],
      ['no boundary', raw(body, 'multipart/form-data'), 400, 'invalid_request'],
      [
        'two files',
        raw(
          multipart('B', [...goodParts(pdf), { name: 'file', filename: 'b.pdf', data: Buffer.from(pdf) }]),
          'multipart/form-data; boundary=B',
        ),
        400,
        'invalid_request',
      ],
      [
        'no file',
        raw(multipart('B', [goodParts(pdf)[1]!]), 'multipart/form-data; boundary=B'),
        400,
        'invalid_request',
      ],
      [
        'no metadata',
        raw(multipart('B', [goodParts(pdf)[0]!]), 'multipart/form-data; boundary=B'),
        400,
        'invalid_request',
      ],
      [
        'unknown part',
        raw(
          multipart('B', [...goodParts(pdf), { name: 'prompt', data: 'secret' }]),
          'multipart/form-data; boundary=B',
        ),
        400,
        'invalid_request',
      ],
      ['empty body', raw(Buffer.alloc(0), ct), 400, 'invalid_request'],
      ['JSON body', raw(JSON.stringify({ file: 'x' }), 'application/json'), 415, 'unsupported_media_type'],
    ];
    for (const [name, p, status, code] of cases) {
      const res = await p;
      assert.equal(res.status, status, `${name}: ${res.text}`);
      assertSpecError(res, status, code);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('random cuts and byte flips of a valid body never store a half proof', async () => {
    const pdf = await proofPdf();
    const body = multipart('XyZ', goodParts(pdf));
    const stored0 = await snapshot();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: body.length - 1 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: body.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 3,
        }),
        async (cut, flips) => {
          const mutated = Buffer.from(body.subarray(0, Math.max(cut, 1)));
          for (const [i, v] of flips) if (i < mutated.length) mutated[i] = v;
          const res = await raw(mutated, 'multipart/form-data; boundary=XyZ');
          if (res.status === 201) {
            accepted++;
            return;
          }
          // A mutation that changed nothing stored (a filename byte) is the same proof again.
          if (res.status === 200) return;
          assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
          assert.equal(typeof res.body.error, 'string');
          assert.equal(res.body.statusCode, res.status);
        },
      ),
      { numRuns: 40, seed: 20 },
    );
    // What must hold is that no spool file is left behind (a refused upload's file is removed after its
    // write stream has closed; removing it sooner left one in loaded PostgreSQL runs): wait for the folder
    // to empty, within a bound, and fail, naming the files, on any still there.
    let after = await snapshot();
    for (let waited = 0; after.spool > 0 && waited < 5000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
      after = await snapshot();
    }
    assert.equal(after.rows - stored0.rows, accepted);
    assert.equal(after.stored - stored0.stored, accepted);
    assert.equal(after.spool, 0, `spool files left: ${files('proofs-spool').join(', ')}`);
  });
});

describe('the same proof uploaded again', () => {
  const eventsOf = async (orgId: string, proofId: string) =>
    (
      await t.ctx.storage.db
        .selectFrom('events')
        .select('data')
        .where('org_id', '=', orgId)
        .where('type', '=', 'proof.risk_mismatch')
        .execute()
    ).filter((e) => JSON.parse(e.data).proofId === proofId);
  const rowsOf = (orgId: string, pdf: Uint8Array) =>
    t.ctx.storage.db
      .selectFrom('proofs')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('sha256', '=', sha256(pdf).slice('sha256:'.length))
      .execute();

  it('a retry (same device, same bytes and metadata) answers 200 with the stored proof: no second row, file or event', async () => {
    const pdf = await proofPdf();
    // a forged score, so that the first upload publishes an event a duplicate must not repeat
    const meta = proofMetadata(pdf, { riskScore: 5, tokenTypes: ['IBAN', 'CVV'] });
    const first = await upload(proofForm(pdf, meta));
    assert.equal(first.status, 201, first.text);
    const before = await snapshot();
    clock.advance(5000);
    const again = await upload(
      proofForm(pdf, { ...meta, hash: meta.hash.toUpperCase().replace('SHA256:', 'sha256:') }),
    );
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, first.body, 'the stored proof, its first upload time included');
    assert.deepEqual(await snapshot(), before, 'nothing stored, the spool emptied');
    assert.equal((await rowsOf(a.org.id, pdf)).length, 1);
    assert.equal((await eventsOf(a.org.id, first.body.id)).length, 1, 'one proof.risk_mismatch event');
  });

  it('the same bytes with other metadata or from another device answer 409 and store nothing; another organization stores its own', async () => {
    const pdf = await proofPdf();
    const first = await upload(proofForm(pdf));
    assert.equal(first.status, 201, first.text);
    const before = await snapshot();
    const otherMeta = await upload(proofForm(pdf, proofMetadata(pdf, { riskScore: 0 })));
    assertSpecError(otherMeta, 409, 'conflict');
    assert.match(otherMeta.body.message, /already stored/);
    assert.ok(!otherMeta.text.includes(first.body.id), 'the stored proof is not named');
    const otherDevice = await upload(proofForm(pdf), (await newDevice(t, a)).deviceToken);
    assertSpecError(otherDevice, 409, 'conflict');
    assert.deepEqual(await snapshot(), before);
    assert.equal((await rowsOf(a.org.id, pdf)).length, 1);

    const elsewhere = await upload(proofForm(pdf), (await newDevice(t, b)).deviceToken);
    assert.equal(elsewhere.status, 201, 'deduplication is per organization');
    assert.notEqual(elsewhere.body.id, first.body.id);
  });

  it('identical uploads sent at once store one proof; every answer names it', async () => {
    const pdf = await proofPdf();
    const before = await snapshot();
    const answers = await Promise.all(Array.from({ length: 4 }, () => upload(proofForm(pdf))));
    assert.deepEqual(
      answers.map((r) => r.status).sort(),
      [200, 200, 200, 201],
      answers.map((r) => r.text).join('\n'),
    );
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    assert.equal((await rowsOf(a.org.id, pdf)).length, 1);
    const after = await snapshot();
    assert.equal(after.rows - before.rows, 1);
    assert.equal(after.stored - before.stored, 1);
  });

  it('two uploads that both pass the look-up before either is stored: the unique index keeps one row, the loser answers with it', async () => {
    // The store holds each put until both uploads reached it, so both have looked for the content and found
    // nothing: only the database's unique index can tell them apart.
    const dir = mkdtempSync(join(tmpdir(), 'fixauth-proofs-'));
    // the server's own store, so that the rows written here have their files where the retention job looks
    const disk = createDiskStore(join(t.ctx.config.dataDir, 'proofs'));
    let arrived = 0;
    let release = () => {};
    const both = new Promise<void>((r) => {
      release = r;
    });
    const store: ProofStore = {
      ...disk,
      async put(key, file, size) {
        if (++arrived === 2) release();
        await both;
        return disk.put(key, file, size);
      },
    };
    const service = createProofsService({
      db: t.ctx.storage.db,
      clock,
      store,
      publish: t.ctx.events.publish,
      deviceUser: async () => null,
      deviceExists: async () => true,
      blank: async (_settings, texts) => texts,
    });
    const device = await newDevice(t, a);
    const pdf = await proofPdf();
    const meta = proofMetadata(pdf, { riskScore: 5, tokenTypes: ['IBAN', 'CVV'] });
    const hex = sha256(pdf).slice('sha256:'.length);
    const spooled = (n: number) => {
      const path = join(dir, `spool-${n}.part`);
      writeFileSync(path, pdf);
      return { path, size: pdf.length, sha256: hex };
    };
    const storedBefore = files('proofs').length;
    try {
      const [one, two] = await Promise.all(
        [1, 2].map((n) => service.upload(a.org, device.deviceId, spooled(n), meta as never, pdf)),
      );
      assert.deepEqual([one!.created, two!.created].sort(), [false, true]);
      assert.deepEqual(one!.proof, two!.proof);
      assert.equal((await rowsOf(a.org.id, pdf)).length, 1);
      assert.equal(
        (await eventsOf(a.org.id, one!.proof.id)).length,
        1,
        'the loser’s event went with its row',
      );
      assert.equal(files('proofs').length, storedBefore + 1, 'the loser’s file is removed');
      assert.ok(files('proofs').includes(`${one!.proof.id}.pdf`));
      assert.ok(!existsSync(join(dir, 'spool-1.part')) && !existsSync(join(dir, 'spool-2.part')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('listing, deletion and retention', () => {
  it('lists by organization and by device, deletes with an audit event, and the retention job removes expired proofs', async () => {
    const c = await t.tenant({ name: 'C', plan: 'business' });
    const d1 = await newDevice(t, c);
    const d2 = await newDevice(t, c);
    const ids: string[] = [];
    for (const d of [d1, d1, d2]) {
      const pdf = await proofPdf();
      const res = await upload(proofForm(pdf), d.deviceToken);
      assert.equal(res.status, 201);
      ids.push(res.body.id);
      clock.advance(1000);
    }
    const all = await t.request('GET', '/api/v1/eps/proof/list', { key: c.admin });
    assert.equal(all.body.pagination.total, 3);
    assert.equal(all.body.proofs[0].id, ids[2], 'newest first');
    const one = await t.request('GET', `/api/v1/eps/proof/list?deviceId=${d1.deviceId}&perPage=1&page=2`, {
      key: c.admin,
    });
    assert.equal(one.body.pagination.total, 2);
    assert.deepEqual(
      one.body.proofs.map((p: any) => p.id),
      [ids[0]],
    );

    const del = await t.request('DELETE', `/api/v1/eps/proof/${ids[0]}`, {
      cookie: await c.session('owner'),
    });
    assert.equal(del.status, 200, del.text);
    assert.equal((await t.request('GET', `/api/v1/eps/proof/${ids[0]}`, { key: c.admin })).status, 404);
    const audit = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', c.org.id)
      .where('type', '=', 'audit.proof_deleted')
      .execute();
    assert.equal(JSON.parse(audit[0]!.data).targetId, ids[0]);
    assert.ok(!files('proofs').includes(`${ids[0]}.pdf`));

    const storedBefore = files('proofs').length;
    clock.advance(89 * 86_400_000);
    assert.equal(await t.ctx.proofs.purgeExpired(), 0, 'nothing is due before 90 days');
    clock.advance(2 * 86_400_000);
    const removed = await t.ctx.proofs.purgeExpired();
    assert.ok(removed >= 2);
    assert.equal(
      (await t.request('GET', '/api/v1/eps/proof/list', { key: c.admin })).body.pagination.total,
      0,
    );
    assert.equal(files('proofs').length, storedBefore - removed);
    assert.equal(await rows(), 0);
  });
});

describe('spool leftovers', () => {
  it('a server starting on the data folder removes spool files of uploads cut by a crash, not fresh ones', async () => {
    const spool = join(t.ctx.config.dataDir, 'proofs-spool');
    mkdirSync(spool, { recursive: true });
    const stale = join(spool, 'spool_crashed.part');
    const fresh = join(spool, 'spool_receiving.part');
    const other = join(spool, 'notes.txt');
    for (const f of [stale, fresh, other]) writeFileSync(f, '%PDF-1.7 partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    utimesSync(other, twoHoursAgo, twoHoursAgo);
    // a second process of the same installation (same data folder and database) starts
    const peer = await startTestServer({ shareWith: t, clock });
    try {
      assert.equal(existsSync(stale), false, 'the crashed upload is gone');
      assert.equal(existsSync(fresh), true, 'an upload in progress elsewhere is kept');
      assert.equal(existsSync(other), true, 'only spool files are touched');
    } finally {
      await peer.close();
      rmSync(fresh, { force: true });
      rmSync(other, { force: true });
    }
  });
});

describe('an upload that stops arriving', () => {
  it('is answered 408 with an error body within the read bound, the connection closed and no spool file left', async () => {
    const s = await startTestServer({ clock, env: { PARAPET_PROOF_READ_TIMEOUT_MS: '1000' } });
    try {
      const tenant = await s.tenant({ name: 'Slow', plan: 'business' });
      const device = await newDevice(s, tenant);
      const pdf = await proofPdf();
      const body = multipart('SLOW', goodParts(pdf));
      const url = new URL(s.url);
      const answer = await new Promise<{ status: number; text: string; connection: string | undefined }>(
        (resolve, reject) => {
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              method: 'POST',
              path: '/api/v1/eps/proof',
              headers: {
                authorization: `Bearer ${device.deviceToken}`,
                'content-type': 'multipart/form-data; boundary=SLOW',
                'content-length': String(body.length),
              },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (text += c));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }),
              );
            },
          );
          req.on('error', reject);
          // half the body, then nothing more: the client stalls mid-file
          req.write(body.subarray(0, Math.floor(body.length / 2)));
        },
      );
      assert.equal(answer.status, 408, answer.text);
      const parsed = JSON.parse(answer.text) as { error: string; statusCode: number };
      assert.equal(parsed.error, 'request_timeout');
      assert.equal(parsed.statusCode, 408);
      assert.equal(answer.connection, 'close');
      const spool = join(s.ctx.config.dataDir, 'proofs-spool');
      for (let i = 0; i < 50 && existsSync(spool) && readdirSync(spool).length > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(existsSync(spool) ? readdirSync(spool) : [], []);
      const list = await s.request('GET', '/api/v1/eps/proof/list', { key: tenant.admin });
      assert.equal(list.body.pagination.total, 0);
    } finally {
      await s.close();
    }
  });
});
