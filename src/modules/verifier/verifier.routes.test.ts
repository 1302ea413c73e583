import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';

const POLICY = `# Travel policy

Employees may book business class for flights longer than 6 hours.

The daily meal allowance is 80 euros.
`;

describe('verification server routes', () => {
  let v: TestVerifier;
  let sourceId: string;
  before(async () => {
    v = await startTestVerifier();
    writeFileSync(join(v.docsDir, 'policy.md'), POLICY);
  });
  after(() => v.close());

  it('refuses calls without a verifier key (401) and sources, read or changed, with a user key (403)', async () => {
    for (const [method, path] of [
      ['POST', '/api/verify'],
      ['GET', '/api/sources'],
      ['GET', '/api/score'],
      ['POST', '/api/sources'],
      ['GET', '/api/sources/src_x'],
      ['DELETE', '/api/sources/src_x'],
      ['POST', '/api/sources/src_x/refresh'],
      ['POST', '/api/sources/src_x/validate'],
    ] as const) {
      const body = method === 'GET' ? {} : { body: {} };
      const none = await v.request(method, path, body);
      assert.equal(none.status, 401, `${method} ${path}`);
      assert.equal(none.body.error, 'unauthorized');
      const wrong = await v.request(method, path, { key: 'vf_live_notakey', ...body });
      assert.equal(wrong.status, 401);
    }
    // Sources name internal URLs, database hosts and users: a user key may only verify and read the score.
    for (const [method, path] of [
      ['GET', '/api/sources'],
      ['GET', '/api/sources/src_x'],
      ['POST', '/api/sources'],
      ['DELETE', '/api/sources/src_x'],
      ['POST', '/api/sources/src_x/refresh'],
      ['POST', '/api/sources/src_x/validate'],
    ] as const) {
      const body = method === 'GET' ? {} : { body: { type: 'file', url: '/x.txt' } };
      const res = await v.request(method, path, { key: v.user, ...body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, 'forbidden');
    }
  });

  it('answers 400 with the error body for bad sources and bad verify requests', async () => {
    const cases: unknown[] = [
      {},
      { type: 'ftp', url: 'x' },
      { type: 'website', url: 'not a url' },
      { type: 'website', url: 'http://user:pw@example.com/' },
      { type: 'website', url: 'https://example.com/', crawlDepth: 9 },
      { type: 'database', url: 'postgres://localhost/db' },
      { type: 'database', url: 'postgres://localhost/db', query: 'DELETE FROM x', keyColumn: 'id' },
      { type: 'file', url: '/etc/passwd' },
      { type: 'file', url: '/x.txt', headers: { a: 'b' } },
      { type: 'file', url: '/x.txt', refreshInterval: 'hourly' },
    ];
    for (const body of cases) {
      const res = await v.request('POST', '/api/sources', { key: v.admin, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'invalid_request');
      assert.equal(typeof res.body.message, 'string');
    }
    for (const body of [
      {},
      { response: '' },
      { response: '   ' },
      { response: 'x', options: { llmCount: 1 } },
      { response: 'x', options: { llmCount: 31 } },
      { response: 'x', extra: 1 },
    ]) {
      const res = await v.request('POST', '/api/verify', { key: v.user, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'invalid_request');
    }
  });

  it("checks a website or api source's address when it is configured: metadata and link-local never, intranet only when allowed", async () => {
    // This verifier allows private targets: still 400 at once, not 202 and a failure at indexing.
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.10.1/',
      'http://[fe80::1]/',
    ]) {
      const res = await v.request('POST', '/api/sources', { key: v.admin, body: { type: 'website', url } });
      assert.equal(res.status, 400, `${url} ${res.text}`);
      assert.match(res.body.message, /not a permitted destination/);
    }
    const strict = await startTestVerifier({ env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      for (const url of ['http://127.0.0.1:8080/', 'http://10.1.2.3/wiki', 'http://intranet/']) {
        const res = await strict.request('POST', '/api/sources', {
          key: strict.admin,
          body: { type: 'api', url },
        });
        assert.equal(res.status, 400, `${url} ${res.text}`);
        assert.match(res.body.message, /PARAPET_ALLOW_PRIVATE_TARGETS=true/);
      }
      const metadata = await strict.request('POST', '/api/sources', {
        key: strict.admin,
        body: { type: 'website', url: 'http://169.254.169.254/' },
      });
      assert.equal(metadata.status, 400);
      assert.doesNotMatch(metadata.body.message, /PARAPET_ALLOW_PRIVATE_TARGETS/, 'no setting allows it');
      assert.equal(
        (await strict.request('GET', '/api/sources', { key: strict.admin })).body.sources.length,
        0,
      );
    } finally {
      await strict.close();
    }
  });

  it('checks every allowedHosts entry when the source is configured, as the URL is, and names the entry', async () => {
    const count = async (w: TestVerifier) =>
      (await w.request('GET', '/api/sources', { key: w.admin })).body.sources.length;
    const before = await count(v);
    // The crawl would follow links to these: refused like the URL itself, even with private targets allowed.
    const forbidden = [
      '169.254.169.254',
      '169.254.169.254:80',
      '0xa9fea9fe', // 169.254.169.254 in another notation
      'metadata.google.internal',
      'METADATA.google.internal.',
      '[fe80::1]',
      'fe80::1',
      '[fe80::1]:8080',
      '[::ffff:169.254.169.254]',
    ];
    // Not a host at all: refused rather than stored as a rule.
    const malformed = [
      'zq.marker2@example.org',
      'http://wiki.example.org',
      'wiki.example.org/path',
      'wiki.example.org:0',
      'wiki.example.org:70000',
      'wiki.example.org:',
      'wiki example.org',
      ' ',
      'wiki..example.org',
      `${'a'.repeat(64)}.example.org`, // a label over 63 characters
    ];
    for (const entry of [...forbidden, ...malformed]) {
      const res = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'website', url: 'http://127.0.0.1:9/', allowedHosts: ['wiki.example.org', entry] },
      });
      assert.equal(res.status, 400, `${JSON.stringify(entry)} ${res.text}`);
      assert.equal(res.body.error, 'invalid_request');
      assert.ok(
        res.body.message.includes(`'allowedHosts' entry ${JSON.stringify(entry)}`),
        `the message names the entry: ${res.body.message}`,
      );
      if (forbidden.includes(entry)) {
        assert.match(res.body.message, /not a permitted destination/);
        assert.doesNotMatch(res.body.message, /PARAPET_ALLOW_PRIVATE_TARGETS/, 'no setting allows it');
      } else assert.match(res.body.message, /must be a host name or IP address/);
    }
    // Over 253 characters, the longest DNS name: the body schema refuses it and says where it is.
    const long = await v.request('POST', '/api/sources', {
      key: v.admin,
      body: { type: 'website', url: 'http://127.0.0.1:9/', allowedHosts: [`${'a.'.repeat(126)}ab`] },
    });
    assert.equal(long.status, 400, long.text);
    assert.match(long.body.message, /allowedHosts/);
    assert.equal(await count(v), before, 'none of them was stored');

    const strict = await startTestVerifier({ env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      for (const entry of ['10.0.0.5', '127.0.0.1:8080', 'intranet', 'wiki.corp.internal']) {
        const res = await strict.request('POST', '/api/sources', {
          key: strict.admin,
          body: { type: 'website', url: 'https://wiki.example.org/', allowedHosts: [entry] },
        });
        assert.equal(res.status, 400, `${entry} ${res.text}`);
        assert.ok(
          res.body.message.includes(`'allowedHosts' entry ${JSON.stringify(entry)}`),
          res.body.message,
        );
        assert.match(res.body.message, /PARAPET_ALLOW_PRIVATE_TARGETS=true/);
      }
      assert.equal(await count(strict), 0);
    } finally {
      await strict.close();
    }
  });

  it('answers its health check without a key, and says nothing about the sources', async () => {
    const res = await v.request('GET', '/api/health');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'ok');
    assert.equal(typeof res.body.passages, 'number');
    assert.deepEqual(Object.keys(res.body).sort(), ['passages', 'status']);
  });

  it('answers 404 for an unknown source', async () => {
    for (const [method, path] of [
      ['GET', '/api/sources/src_unknown'],
      ['DELETE', '/api/sources/src_unknown'],
      ['POST', '/api/sources/src_unknown/refresh'],
      ['POST', '/api/sources/src_unknown/validate'],
    ] as const) {
      const res = await v.request(method, path, { key: v.admin });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error, 'not_found');
    }
    // A body-less action sent with Content-Type: application/json and no body (generated clients) reaches
    // the route instead of a 400 "The request body is empty".
    const refresh = await v.request('POST', '/api/sources/src_unknown/refresh', {
      key: v.admin,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(refresh.status, 404, refresh.text);
  });

  it('indexes a file source, verifies against it, and validation raises a decided claim to 100', async () => {
    const created = await v.request('POST', '/api/sources', {
      key: v.admin,
      body: { type: 'file', url: join(v.docsDir, 'policy.md'), refreshInterval: 'manual' },
    });
    assert.equal(created.status, 202);
    assert.equal(created.body.status, 'pending');
    assert.equal(created.body.url, join(v.docsDir, 'policy.md'), 'administrators see the full path');
    sourceId = created.body.id;
    const ready = await v.settled(sourceId);
    assert.equal(ready.status, 'ready');
    assert.equal(ready.documents, 1);
    assert.ok(ready.passages >= 1);

    const first = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'The daily meal allowance is 80 euros. The company pays for spouses.' },
    });
    assert.equal(first.status, 200);
    const [meal, spouses] = first.body.claims;
    assert.equal(meal.verdict, 'supported');
    assert.equal(meal.decidedBy, 'source');
    assert.ok(meal.confidence > 0 && meal.confidence <= 70);
    assert.equal(meal.source, 'policy.md');
    assert.equal(spouses.verdict, 'not_found');
    assert.equal(spouses.verified, false);
    assert.equal(first.body.verified, false);

    const validated = await v.request('POST', `/api/sources/${sourceId}/validate`, { key: v.admin });
    assert.equal(validated.status, 200);
    assert.equal(validated.body.validated, true);
    assert.equal(validated.body.validatedBy, 'test admin');

    const second = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'The daily meal allowance is 90 euros.', options: { includeSourceUrls: false } },
    });
    assert.equal(second.body.claims[0].verdict, 'contradicted');
    assert.equal(second.body.claims[0].confidence, 100);
    assert.equal(second.body.claims[0].decidedBy, 'validated_source');
    assert.equal(second.body.claims[0].source, sourceId, 'the source id instead of its URL');
    assert.deepEqual(second.body.sources, [{ type: 'file', url: sourceId, confidence: 100 }]);
    assert.equal(second.body.score, 0);

    const third = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'Employees may book business class for flights longer than 6 hours.' },
    });
    assert.equal(third.body.verified, true);
    assert.equal(third.body.score, 100);

    const score = await v.request('GET', '/api/score', { key: v.user });
    assert.equal(score.status, 200);
    assert.deepEqual(score.body.sources, { connected: 1, validated: 1 });
    assert.equal(score.body.lastUpdate, ready.lastIndexedAt);
    assert.equal(score.body.verifications, 3);

    const withdrawn = await v.request('POST', `/api/sources/${sourceId}/validate`, {
      key: v.admin,
      body: { validated: false },
    });
    assert.equal(withdrawn.body.validated, false);
  });

  it('refreshes on demand and deletes a source with its passages', async () => {
    writeFileSync(join(v.docsDir, 'policy.md'), `${POLICY}\nThe hotel limit is 150 euros a night.\n`);
    const refreshed = await v.request('POST', `/api/sources/${sourceId}/refresh`, { key: v.admin });
    assert.equal(refreshed.status, 202);
    await v.settled(sourceId);
    const hotel = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'The hotel limit is 150 euros a night.' },
    });
    assert.equal(hotel.body.claims[0].verdict, 'supported');

    const list = await v.request('GET', '/api/sources', { key: v.admin });
    assert.equal(list.body.sources.length, 1);
    const del = await v.request('DELETE', `/api/sources/${sourceId}`, { key: v.admin });
    assert.deepEqual(del.body, { deleted: true, id: sourceId });
    assert.equal((await v.request('GET', `/api/sources/${sourceId}`, { key: v.admin })).status, 404);
    const after = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'The hotel limit is 150 euros a night.' },
    });
    assert.equal(after.body.claims[0].verdict, 'not_found');
    assert.match(after.body.warnings.join(' '), /No source is indexed/);
  });

  it('shows a source as indexing while it is read, and refuses its refresh then (409)', async () => {
    // A website that answers its start page only when the test lets it: the source stays in indexing.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const site = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      void held.then(() =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>The reception opens at 8 am.</p>'),
      );
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    try {
      const created = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: {
          type: 'website',
          url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`,
          crawlDepth: 0,
        },
      });
      assert.equal(created.status, 202);
      const id = created.body.id as string;
      let status = created.body.status as string;
      while (status === 'pending') {
        await new Promise((r) => setTimeout(r, 10));
        status = (await v.request('GET', `/api/sources/${id}`, { key: v.admin })).body.status;
      }
      assert.equal(status, 'indexing');
      const refresh = await v.request('POST', `/api/sources/${id}/refresh`, { key: v.admin });
      assert.equal(refresh.status, 409, refresh.text);
      assert.equal(refresh.body.error, 'conflict');
      assert.match(refresh.body.message, /being indexed/);
      release();
      const ready = await v.settled(id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal(ready.documents, 1);
      assert.equal((await v.request('POST', `/api/sources/${id}/refresh`, { key: v.admin })).status, 202);
      await v.settled(id);
    } finally {
      release();
      await new Promise<void>((r) => site.close(() => r()));
    }
  });

  it('records a failed source with its reason', async () => {
    // A missing file is refused when configured (400); one removed since fails at its next refresh.
    const file = join(v.docsDir, 'gone.txt');
    writeFileSync(file, 'The archive closes at noon.');
    const res = await v.request('POST', '/api/sources', { key: v.admin, body: { type: 'file', url: file } });
    assert.equal((await v.settled(res.body.id)).status, 'ready');
    rmSync(file);
    await v.request('POST', `/api/sources/${res.body.id}/refresh`, { key: v.admin });
    const failed = await v.settled(res.body.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.statusReason, `${file} does not exist on the verifier's host`);
  });
});
