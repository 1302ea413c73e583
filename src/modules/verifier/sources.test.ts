import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import BetterSqlite3 from 'better-sqlite3';
import { Document, Packer, Paragraph } from 'docx';
import pg from 'pg';
import { ManualClock } from '../../platform/clock/index.js';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';

interface SiteRequest {
  path: string;
  userAgent: string | undefined;
  ifNoneMatch: string | undefined;
}

/** A small website of linked pages on loopback, with a robots.txt, ETags and a log of every request. */
function startSite() {
  const requests: SiteRequest[] = [];
  const pages: Record<string, string> = {
    '/': '<html><head><title>Acme handbook</title></head><body><nav><a href="/menu">Menu</a></nav><p>Acme was founded in 1998 in Lyon.</p><a href="/a">A</a> <a href="/b#part">B</a> <a href="/private/secret">P</a> <a href="http://elsewhere.invalid/x">off-site</a></body></html>',
    '/a': '<html><body><h1>Holidays</h1><p>Every employee has 27 days of paid holiday a year.</p><a href="/a/deep">deeper</a></body></html>',
    '/b': '<html><body><p>The office in Lyon opens at 8 am.</p><script>var hidden = "not text";</script></body></html>',
    '/a/deep': '<html><body><p>The canteen serves lunch until 2 pm.</p></body></html>',
    '/private/secret': '<html><body><p>The safe code is 4711.</p></body></html>',
    '/menu': '<html><body><p>Menu page.</p></body></html>',
  };
  const etag = (path: string) =>
    `"${createHash('sha256')
      .update(pages[path] ?? '')
      .digest('hex')
      .slice(0, 16)}"`;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({
      path,
      userAgent: req.headers['user-agent'],
      ifNoneMatch: req.headers['if-none-match'] as string | undefined,
    });
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: ParapetVerifier\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n');
      return;
    }
    const page = pages[path];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['if-none-match'] === etag(path)) {
      res.writeHead(304, { etag: etag(path) }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: etag(path) });
    res.end(page);
  });
  return {
    requests,
    pages,
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function verifyOne(v: TestVerifier, response: string) {
  const res = await v.request('POST', '/api/verify', { key: v.user, body: { response } });
  assert.equal(res.status, 200, res.text);
  return res.body.claims[0];
}

describe('verifier sources', () => {
  let v: TestVerifier;
  const clock = new ManualClock('2026-03-02T08:00:00.000Z');
  // The organization's documents, outside the verifier's data folder (which is never a source).
  const docs = mkdtempSync(join(tmpdir(), 'parapet-verifier-docs-'));
  before(async () => {
    v = await startTestVerifier({ clock });
  });
  after(async () => {
    await v.close();
    rmSync(docs, { recursive: true, force: true });
  });

  describe('website', () => {
    const site = startSite();
    let base: string;
    let id: string;
    before(async () => {
      base = await site.start();
    });
    after(() => site.close());

    it('crawls to crawlDepth on the same site, honours robots.txt and says who it is', async () => {
      const res = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'website', url: `${base}/`, crawlDepth: 1, refreshInterval: 'daily' },
      });
      assert.equal(res.status, 202);
      id = res.body.id;
      const ready = await v.settled(id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      const fetched = new Set(site.requests.map((r) => r.path));
      // Depth 1: the start page and the pages it links to (menu links too), not /a/deep, not /private/.
      assert.deepEqual([...fetched].sort(), ['/', '/a', '/b', '/menu', '/robots.txt']);
      assert.equal(ready.documents, 4);
      for (const r of site.requests) assert.match(r.userAgent ?? '', /^ParapetVerifier\/\S+ \(\+https?:\/\//);
      assert.equal(site.requests[0]!.path, '/robots.txt', 'robots.txt is read before any page');

      assert.equal(
        (await verifyOne(v, 'Every employee has 27 days of paid holiday a year.')).verdict,
        'supported',
      );
      assert.equal((await verifyOne(v, 'Acme was founded in 2001 in Lyon.')).verdict, 'contradicted');
      const canteen = await verifyOne(v, 'The canteen serves lunch until 2 pm.');
      assert.equal(canteen.verdict, 'not_found', 'a page beyond crawlDepth is not indexed');
      assert.equal((await verifyOne(v, 'The safe code is 4711.')).verdict, 'not_found', 'robots.txt');
      assert.equal((await verifyOne(v, 'The variable hidden is not text.')).verdict, 'not_found', 'scripts');
      const cited = await verifyOne(v, 'The office in Lyon opens at 8 am.');
      assert.equal(cited.source, `${base}/b`, 'the page is cited without its fragment');
    });

    it('refreshes with If-None-Match: unchanged pages stay, a changed page is read again', async () => {
      site.requests.length = 0;
      site.pages['/b'] = '<html><body><p>The office in Lyon opens at 9 am.</p></body></html>';
      clock.advance(25 * 60 * 60 * 1000);
      assert.deepEqual(await v.ctx.service.refreshDue(), [id], 'the daily refresh is due after a day');
      const ready = await v.settled(id);
      assert.equal(ready.status, 'ready');
      assert.equal(ready.documents, 4);
      const conditional = site.requests.filter((r) => r.path === '/' || r.path === '/a');
      assert.ok(conditional.length === 2 && conditional.every((r) => r.ifNoneMatch), 'asked conditionally');
      assert.equal((await verifyOne(v, 'The office in Lyon opens at 9 am.')).verdict, 'supported');
      assert.equal(
        (await verifyOne(v, 'Every employee has 27 days of paid holiday a year.')).verdict,
        'supported',
      );
      assert.deepEqual(await v.ctx.service.refreshDue(), [], 'not due again until the next day');
    });
  });

  describe('website limits', () => {
    // Pages with Last-Modified and no ETag, so that a refresh can only ask with If-Modified-Since; the start
    // page links to one page on another host name (127.0.0.2, also loopback) and to five of its own site.
    const stamp = (day: number) => new Date(Date.UTC(2026, 0, day)).toUTCString();
    const pages: Record<string, { html: string; modified: string }> = {
      '/': { html: '', modified: stamp(1) },
      '/a': { html: '<p>The library opens at 7 am.</p>', modified: stamp(1) },
      '/b': { html: '<p>The gym closes at 10 pm.</p>', modified: stamp(1) },
      '/c': { html: '<p>The shuttle leaves every 20 minutes.</p>', modified: stamp(1) },
      '/d': { html: '<p>The pool has 8 lanes.</p>', modified: stamp(1) },
      '/e': { html: '<p>The archive holds 3,000 maps.</p>', modified: stamp(1) },
      // Over the 2 MB page limit: a script (no text) fills the first 2.1 MB, a sentence follows it.
      '/big': {
        html: `<p>The lab opens at 6 am.</p><script>/*${'x'.repeat(2_100_000)}*/</script><p>The observatory telescope weighs 40 tonnes.</p>`,
        modified: stamp(1),
      },
    };
    const seen: Array<{ path: string; ifModifiedSince?: string; ifNoneMatch?: string }> = [];
    const otherSeen: string[] = [];
    let main: http.Server;
    let other: http.Server;
    let lv: TestVerifier;
    let base: string;
    let otherHost: string;
    const limitsClock = new ManualClock('2026-03-02T08:00:00.000Z');
    before(async () => {
      other = http.createServer((req, res) => {
        otherSeen.push(req.url ?? '/');
        if (req.url === '/robots.txt') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>The partner site sells 12 bikes.</p>');
      });
      await new Promise<void>((r) => other.listen(0, '127.0.0.2', r));
      otherHost = `127.0.0.2:${(other.address() as AddressInfo).port}`;
      const otherUrl = `http://${otherHost}/partner`;
      // The other host's link first: within the page limit only when it is followed.
      pages['/']!.html =
        `<p>Campus services.</p><a href="${otherUrl}">partner</a> ${['a', 'b', 'c', 'd', 'e'].map((p) => `<a href="/${p}">${p}</a>`).join(' ')}`;
      main = http.createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0]!;
        seen.push({
          path,
          ...(req.headers['if-modified-since'] ? { ifModifiedSince: req.headers['if-modified-since'] } : {}),
          ...(req.headers['if-none-match'] ? { ifNoneMatch: req.headers['if-none-match'] as string } : {}),
        });
        const page = pages[path];
        if (!page) return void res.writeHead(404).end();
        const since = req.headers['if-modified-since'];
        if (since && Date.parse(since) >= Date.parse(page.modified))
          return void res.writeHead(304, { 'last-modified': page.modified }).end();
        res.writeHead(200, { 'content-type': 'text/html', 'last-modified': page.modified }).end(page.html);
      });
      await new Promise<void>((r) => main.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
      lv = await startTestVerifier({ clock: limitsClock, env: { PARAPET_VERIFIER_MAX_PAGES: '4' } });
    });
    after(async () => {
      await lv.close();
      await new Promise<void>((r) => main.close(() => r()));
      await new Promise<void>((r) => other.close(() => r()));
    });
    const pagesFetched = () => seen.filter((r) => r.path !== '/robots.txt').map((r) => r.path);

    let id: string;
    it('stops at the page limit, stays on its host, and refreshes with If-Modified-Since', async () => {
      const res = await lv.request('POST', '/api/sources', {
        key: lv.admin,
        body: { type: 'website', url: `${base}/`, crawlDepth: 1, refreshInterval: 'weekly' },
      });
      assert.equal(res.status, 202, res.text);
      id = res.body.id;
      const ready = await lv.settled(id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      // PARAPET_VERIFIER_MAX_PAGES=4: the start page and its first three links, breadth-first.
      assert.deepEqual(pagesFetched(), ['/', '/a', '/b', '/c']);
      assert.equal(ready.documents, 4);
      assert.deepEqual(otherSeen, [], 'another host name is not crawled unless allowed');
      assert.equal((await verifyOne(lv, 'The pool has 8 lanes.')).verdict, 'not_found', 'beyond the limit');

      seen.length = 0;
      pages['/b'] = { html: '<p>The gym closes at 11 pm.</p>', modified: stamp(20) };
      limitsClock.advance(2 * 24 * 60 * 60 * 1000);
      assert.deepEqual(await lv.ctx.service.refreshDue(), [], 'a weekly source is not due after two days');
      limitsClock.advance(6 * 24 * 60 * 60 * 1000);
      assert.deepEqual(await lv.ctx.service.refreshDue(), [id], 'and due after eight');
      const again = await lv.settled(id);
      assert.equal(again.status, 'ready', again.statusReason);
      assert.equal(again.documents, 4);
      assert.deepEqual(pagesFetched(), ['/', '/a', '/b', '/c']);
      for (const r of seen.filter((x) => x.path !== '/robots.txt')) {
        assert.equal(r.ifModifiedSince, stamp(1), `${r.path} is asked with its stored Last-Modified`);
        assert.equal(r.ifNoneMatch, undefined, 'no ETag was given, none is sent');
      }
      assert.equal((await verifyOne(lv, 'The gym closes at 11 pm.')).verdict, 'supported');
      assert.equal(
        (await verifyOne(lv, 'The library opens at 7 am.')).verdict,
        'supported',
        'a 304 keeps the stored page',
      );
    });

    it('follows links to the hosts in allowedHosts; a manual source is never due', async () => {
      // The partner listens on another port than the start URL: the entry names it (host:port).
      const res = await lv.request('POST', '/api/sources', {
        key: lv.admin,
        body: { type: 'website', url: `${base}/`, crawlDepth: 1, allowedHosts: [otherHost] },
      });
      const ready = await lv.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.deepEqual(otherSeen, ['/robots.txt', '/partner'], 'robots.txt first, then the linked page');
      assert.equal((await verifyOne(lv, 'The partner site sells 12 bikes.')).verdict, 'supported');
      limitsClock.advance(400 * 24 * 60 * 60 * 1000);
      const due = await lv.ctx.service.refreshDue();
      assert.ok(due.includes(id), 'the weekly source is due again');
      assert.ok(!due.includes(res.body.id), 'the manual source (the default) is not');
      await lv.ctx.service.idle();
    });

    it('reads a page up to 2 MB and drops the rest', async () => {
      const res = await lv.request('POST', '/api/sources', {
        key: lv.admin,
        body: { type: 'website', url: `${base}/big`, crawlDepth: 0 },
      });
      const ready = await lv.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal((await verifyOne(lv, 'The lab opens at 6 am.')).verdict, 'supported');
      assert.equal(
        (await verifyOne(lv, 'The observatory telescope weighs 40 tonnes.')).verdict,
        'not_found',
        'what stands after the first 2 MB is not indexed',
      );
    });
  });

  describe('website scope: same origin', () => {
    // Four loopback servers: the wiki (127.0.0.1:P), another service on the same host (127.0.0.1:Q), and
    // the same two ports on another loopback name (127.0.0.2). The wiki links to the three others and has a
    // page that redirects to the other service. Each request is logged as "host:port path".
    const log: string[] = [];
    const servers: http.Server[] = [];
    let wiki = '';
    let service = '';
    let twin = '';
    let twinService = '';
    const listen = async (host: string, port: number, pages: (self: string) => Record<string, string>) => {
      let self = '';
      const server = http.createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0]!;
        log.push(`${self} ${path}`);
        if (path === '/moved') return void res.writeHead(302, { location: `${service}/y` }).end();
        const page = pages(self)[path];
        if (page === undefined) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      });
      await new Promise<void>((r) => server.listen(port, host, r));
      servers.push(server);
      self = `${host}:${(server.address() as AddressInfo).port}`;
      return `http://${self}`;
    };
    before(async () => {
      const wikiPages = () => ({
        '/': `<p>The wiki.</p><a href="/local">local</a> <a href="/moved">moved</a> <a href="${service}/linked">service</a> <a href="${twin}/twin">twin</a> <a href="${twinService}/far">far</a>`,
        '/local': '<p>The wiki has a local page.</p>',
      });
      const servicePages = () => ({
        '/linked': '<p>The admin console lists 42 nodes.</p>',
        '/y': '<p>The redirect target holds 7 secrets.</p>',
      });
      wiki = await listen('127.0.0.1', 0, wikiPages);
      const wikiPort = Number(new URL(wiki).port);
      service = await listen('127.0.0.1', 0, servicePages);
      twin = await listen('127.0.0.2', wikiPort, () => ({ '/twin': '<p>The twin page.</p>' }));
      twinService = await listen('127.0.0.2', Number(new URL(service).port), () => ({
        '/far': '<p>The far page.</p>',
      }));
    });
    after(() => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))));

    const crawl = async (allowedHosts?: string[]) => {
      log.length = 0;
      const res = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'website', url: `${wiki}/`, crawlDepth: 1, ...(allowedHosts ? { allowedHosts } : {}) },
      });
      assert.equal(res.status, 202, res.text);
      const ready = await v.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      const host = (url: string) => url.slice('http://'.length);
      const hit = (url: string) =>
        log
          .filter((l) => l.startsWith(`${host(url)} `))
          .map((l) => l.split(' ')[1])
          .filter((p) => p !== '/robots.txt');
      return { documents: ready.documents as number, hit };
    };

    it('follows neither a link nor a redirect to another port of the same host', async () => {
      const { documents, hit } = await crawl();
      assert.deepEqual(hit(wiki).sort(), ['/', '/local', '/moved']);
      assert.deepEqual(hit(service), [], 'the other service is never asked, by link or by redirect');
      assert.deepEqual(
        log.filter((l) => !l.startsWith(`${new URL(wiki).host} `)),
        [],
        'nor its robots.txt, nor another host',
      );
      assert.equal(documents, 2, 'the start page and /local; /moved leads off the site');
      assert.equal((await verifyOne(v, 'The admin console lists 42 nodes.')).verdict, 'not_found');
      assert.equal((await verifyOne(v, 'The redirect target holds 7 secrets.')).verdict, 'not_found');
    });

    it("allows a bare allowedHosts name on the start URL's port only, and host:port on that port", async () => {
      const bare = await crawl(['127.0.0.2']);
      assert.deepEqual(bare.hit(twin), ['/twin'], "the start URL's port");
      assert.deepEqual(bare.hit(twinService), [], 'not another port of the allowed name');
      assert.deepEqual(bare.hit(service), []);
      assert.equal(bare.documents, 3);

      const withPort = await crawl([`127.0.0.1:${new URL(service).port}`]);
      assert.deepEqual(
        withPort.hit(service).sort(),
        ['/linked', '/y'],
        'the named port, by link and redirect',
      );
      assert.deepEqual(withPort.hit(twin), []);
      assert.equal(withPort.documents, 4);
      assert.equal((await verifyOne(v, 'The admin console lists 42 nodes.')).verdict, 'supported');
    });
  });

  describe('file', () => {
    it('reads a PDF page by page and a DOCX, uploaded as multipart', async () => {
      const pdf = await PDFDocument.create();
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      pdf
        .addPage()
        .drawText('The warranty period of the X200 pump is 24 months.', { x: 50, y: 700, size: 12, font });
      pdf
        .addPage()
        .drawText('Service visits are free during the first year.', { x: 50, y: 700, size: 12, font });
      const form = new FormData();
      form.append('type', 'file');
      form.append('name', 'Pump manual');
      form.append('file', new Blob([Buffer.from(await pdf.save())]), 'manual.pdf');
      const res = await v.request('POST', '/api/sources', { key: v.admin, form });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.name, 'Pump manual');
      const ready = await v.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal(ready.documents, 2);
      const pump = await verifyOne(v, 'The X200 pump has a warranty period of 36 months.');
      assert.equal(pump.verdict, 'contradicted');
      assert.equal(pump.source, 'manual.pdf#page=1');
      assert.equal(
        (await verifyOne(v, 'Service visits are free during the first year.')).source,
        'manual.pdf#page=2',
      );

      const docx = await Packer.toBuffer(
        new Document({
          sections: [{ children: [new Paragraph('Refunds are paid within 14 days of a return.')] }],
        }),
      );
      const form2 = new FormData();
      form2.append('file', new Blob([docx]), 'terms.docx');
      const res2 = await v.request('POST', '/api/sources', { key: v.admin, form: form2 });
      assert.equal((await v.settled(res2.body.id)).status, 'ready');
      assert.equal(
        (await verifyOne(v, 'Refunds are paid within 30 days of a return.')).verdict,
        'contradicted',
      );
    });

    it('reads HTML, TXT and CSV files from a path; refuses a multipart upload without a file', async () => {
      writeFileSync(join(docs, 'page.html'), '<p>The help desk number is extension 5500.</p>');
      writeFileSync(join(docs, 'notes.txt'), 'Parking permits cost 40 euros a month.');
      writeFileSync(join(docs, 'rooms.csv'), 'room,floor,seats\nAtlas,3,12\n"Boreal, east",5,8\n');
      for (const f of ['page.html', 'notes.txt', 'rooms.csv']) {
        const res = await v.request('POST', '/api/sources', {
          key: v.admin,
          body: { type: 'file', url: join(docs, f) },
        });
        assert.equal((await v.settled(res.body.id)).status, 'ready', f);
      }
      assert.equal((await verifyOne(v, 'The help desk number is extension 5500.')).verdict, 'supported');
      assert.equal((await verifyOne(v, 'Parking permits cost 60 euros a month.')).verdict, 'contradicted');
      const room = await verifyOne(v, 'Room Boreal, east is on floor 5 and has 8 seats.');
      assert.equal(room.verdict, 'supported');
      assert.equal(room.source, 'rooms.csv');

      const form = new FormData();
      form.append('type', 'file');
      const res = await v.request('POST', '/api/sources', { key: v.admin, form });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_request');
    });

    it('checks a path when the source is configured: absolute, existing, one file; lists it in full', async () => {
      mkdirSync(join(docs, 'handbook'));
      writeFileSync(join(docs, 'handbook', 'a.md'), 'The cafeteria opens at 7 am.');
      writeFileSync(join(docs, 'tool.exe'), 'MZ');
      // A FIFO would hold indexing for ever (a read waits for a writer): opened without blocking, refused.
      execFileSync('mkfifo', [join(docs, 'pipe.txt')]);
      const refused: Array<[string, RegExp]> = [
        [
          join(docs, 'handbook'),
          /^The body field 'url' \(.+handbook\) is a folder, and a file source is one file/,
        ],
        [
          '/nonexistent/x.md',
          /^The body field 'url' \(\/nonexistent\/x\.md\) does not exist on the verifier's host/,
        ],
        [join(docs, 'pipe.txt'), /^The body field 'url' \(.+pipe\.txt\) is not a regular file\.$/],
        ['relative/x.md', /^The body field 'url' \(relative\/x\.md\) must be an absolute path/],
        [
          join(docs, 'tool.exe'),
          /^The body field 'url' \(.+tool\.exe\) must be one of these file types: \.pdf /,
        ],
        ['file://elsewhere/x.md', /^The body field 'url' must be an absolute path or a file:\/\/\/ URL/],
      ];
      const before = (await v.request('GET', '/api/sources', { key: v.admin })).body.sources.length;
      for (const [url, message] of refused) {
        const res = await v.request('POST', '/api/sources', { key: v.admin, body: { type: 'file', url } });
        assert.equal(res.status, 400, url);
        assert.equal(res.body.error, 'invalid_request');
        assert.match(res.body.message, message);
      }
      const list = await v.request('GET', '/api/sources', { key: v.admin });
      assert.equal(list.body.sources.length, before, 'nothing refused was stored');

      const path = join(docs, 'handbook', 'a.md');
      for (const url of [path, pathToFileURL(path).href]) {
        const res = await v.request('POST', '/api/sources', { key: v.admin, body: { type: 'file', url } });
        assert.equal(res.status, 202, res.text);
        assert.equal(res.body.url, path, 'administrators see the full path');
        assert.equal((await v.settled(res.body.id)).status, 'ready');
      }
    });

    it('gives a damaged DOCX or PDF a reason of its own, never its content', async () => {
      const zipWithout = await Packer.toBuffer(
        new Document({ sections: [{ children: [new Paragraph('x')] }] }),
      );
      const cases: Array<[string, Buffer, RegExp]> = [
        [
          'garbage.docx',
          Buffer.from('Quarterly secret plan, not a zip at all'),
          /^not a readable DOCX: not a zip archive/,
        ],
        [
          'cut.docx',
          zipWithout.subarray(0, zipWithout.length - 40),
          /^not a readable DOCX: not a zip archive/,
        ],
        ['garbage.pdf', Buffer.from('Quarterly secret plan, not a PDF at all'), /^not a readable PDF/],
      ];
      for (const [name, data, reason] of cases) {
        const form = new FormData();
        form.append('file', new Blob([data]), name);
        const res = await v.request('POST', '/api/sources', { key: v.admin, form });
        assert.equal(res.status, 202, res.text);
        const failed = await v.settled(res.body.id);
        assert.equal(failed.status, 'failed', name);
        assert.match(failed.statusReason, reason, name);
        assert.doesNotMatch(failed.statusReason, /secret plan/);
      }
    });
  });

  describe("the verifier's own files", () => {
    // A verifier that keeps everything in its data folder: the embedded store and a generated master key.
    let own: TestVerifier;
    let key: string;
    before(async () => {
      own = await startTestVerifier({
        clock,
        env: { PARAPET_VERIFIER_DATABASE_URL: '', PARAPET_VERIFIER_MASTER_KEY: '' },
      });
      key = readFileSync(join(own.dataDir, 'master.key'), 'utf8').trim();
    });
    after(() => own.close());

    const create = (body: Record<string, unknown>) =>
      own.request('POST', '/api/sources', { key: own.admin, body });
    const keyQuoted = async () => {
      const res = await own.request('POST', '/api/verify', {
        key: own.user,
        body: { response: `The value is ${key}.` },
      });
      assert.equal(res.status, 200, res.text);
      // The claim repeats the answer; the key must not come back as evidence or as a cited source.
      return res.body.claims.some(
        (c: { evidence: string | null; verdict: string }) =>
          c.verdict !== 'not_found' || (c.evidence ?? '').includes(key),
      );
    };

    it('refuses the master key, uploads and the data folder by any link or path, with the reason', async () => {
      const upload = new FormData();
      upload.append('file', new Blob(['Badges are renewed every March.']), 'badges.txt');
      const up = await own.request('POST', '/api/sources', { key: own.admin, form: upload });
      assert.equal((await own.settled(up.body.id)).status, 'ready');
      const stored = join(own.dataDir, 'uploads', up.body.id, 'badges.txt');

      const dir = mkdtempSync(join(docs, 'links-'));
      symlinkSync(join(own.dataDir, 'master.key'), join(dir, 'notes.txt'));
      symlinkSync(stored, join(dir, 'badges.txt'));
      symlinkSync(own.dataDir, join(dir, 'data'));
      writeFileSync(join(own.dataDir, 'readme.txt'), 'A file an operator left in the data folder.');
      linkSync(join(own.dataDir, 'master.key'), join(dir, 'hard.txt'));
      const intoData =
        /^The body field 'url' \(.+\) leads into the verifier's data folder \(its master key, store and uploaded files\), which cannot be a source\.$/;
      for (const [url, message] of [
        [join(dir, 'notes.txt'), intoData],
        [pathToFileURL(join(dir, 'notes.txt')).href, intoData],
        [join(dir, 'badges.txt'), intoData],
        [join(dir, 'data', 'readme.txt'), intoData],
        [join(own.dataDir, 'readme.txt'), intoData],
        [join(own.dataDir, 'master.key'), intoData],
        [
          join(dir, 'hard.txt'),
          /^The body field 'url' \(.+\) is one of the verifier's own files \(its master key or store\)/,
        ],
      ] as Array<[string, RegExp]>) {
        const res = await create({ type: 'file', url });
        assert.equal(res.status, 400, url);
        assert.match(res.body.message, message, url);
      }
      const list = await own.request('GET', '/api/sources', { key: own.admin });
      assert.equal(list.body.sources.length, 1, 'only the upload is stored');
      assert.equal(await keyQuoted(), false);
    });

    it('reads a file link again at each refresh: pointed at the key since, the refresh fails', async () => {
      const dir = mkdtempSync(join(docs, 'swap-'));
      writeFileSync(join(dir, 'policy.txt'), 'Visitors sign in at the front desk.');
      const link = join(dir, 'notes.txt');
      symlinkSync(join(dir, 'policy.txt'), link);
      const res = await create({ type: 'file', url: link });
      assert.equal(res.status, 202, res.text);
      assert.equal((await own.settled(res.body.id)).status, 'ready');

      unlinkSync(link);
      symlinkSync(join(own.dataDir, 'master.key'), link);
      const again = await own.request('POST', `/api/sources/${res.body.id}/refresh`, { key: own.admin });
      assert.equal(again.status, 202, again.text);
      const failed = await own.settled(res.body.id);
      assert.equal(failed.status, 'failed');
      assert.match(failed.statusReason, /leads into the verifier's data folder/);
      assert.equal(await keyQuoted(), false, 'the key is never evidence');
    });

    it("refuses links into /proc, /sys and /dev (the process's environment, devices), at registration and refresh", async () => {
      const dir = mkdtempSync(join(docs, 'kernel-'));
      // /proc/self/environ and a file in /dev/shm are regular files to stat: only their real path tells.
      const shm = mkdtempSync('/dev/shm/parapet-verifier-');
      writeFileSync(join(shm, 'notes.txt'), 'Shared memory, not a document.');
      symlinkSync('/proc/self/environ', join(dir, 'env.txt'));
      symlinkSync(join(shm, 'notes.txt'), join(dir, 'shm.txt'));
      symlinkSync('/dev/zero', join(dir, 'zero.txt'));
      symlinkSync('/proc/self/environ', join(dir, 'env.sqlite'));
      try {
        for (const [body, message] of [
          [{ type: 'file', url: join(dir, 'env.txt') }, /\) leads into \/proc \(the system's process/],
          [{ type: 'file', url: pathToFileURL(join(dir, 'env.txt')).href }, /\) leads into \/proc /],
          [{ type: 'file', url: '/proc/self/environ' }, /\) leads into \/proc /],
          [{ type: 'file', url: join(dir, 'shm.txt') }, /\) leads into \/dev /],
          [{ type: 'file', url: join(dir, 'zero.txt') }, /\) is not a regular file\.$/],
          [
            { type: 'database', url: `sqlite:${join(dir, 'env.sqlite')}`, tables: ['t'] },
            /\) leads into \/proc /,
          ],
        ] as Array<[Record<string, unknown>, RegExp]>) {
          const res = await create(body);
          assert.equal(res.status, 400, `${body.url}: ${res.text}`);
          assert.match(res.body.message, /^The body field 'url' \(/);
          assert.match(res.body.message, message, String(body.url));
        }

        // Registered while it led to a document, pointed at the environment since: the refresh fails.
        writeFileSync(join(dir, 'policy.txt'), 'Parcels are collected at noon.');
        const link = join(dir, 'later.txt');
        symlinkSync(join(dir, 'policy.txt'), link);
        const res = await create({ type: 'file', url: link });
        assert.equal(res.status, 202, res.text);
        assert.equal((await own.settled(res.body.id)).status, 'ready');
        unlinkSync(link);
        symlinkSync('/proc/self/environ', link);
        await own.request('POST', `/api/sources/${res.body.id}/refresh`, { key: own.admin });
        const failed = await own.settled(res.body.id);
        assert.equal(failed.status, 'failed');
        assert.match(failed.statusReason, /leads into \/proc /);

        const db = new BetterSqlite3(join(dir, 'rooms.sqlite'));
        db.exec(
          "CREATE TABLE rooms (id TEXT PRIMARY KEY, name TEXT); INSERT INTO rooms VALUES ('r1', 'Atlas');",
        );
        db.close();
        const dbLink = join(dir, 'link.sqlite');
        symlinkSync(join(dir, 'rooms.sqlite'), dbLink);
        const dbSource = await create({ type: 'database', url: `sqlite:${dbLink}`, tables: ['rooms'] });
        assert.equal(dbSource.status, 202, dbSource.text);
        assert.equal((await own.settled(dbSource.body.id)).status, 'ready');
        unlinkSync(dbLink);
        symlinkSync(join(shm, 'notes.txt'), dbLink);
        await own.request('POST', `/api/sources/${dbSource.body.id}/refresh`, { key: own.admin });
        const dbFailed = await own.settled(dbSource.body.id);
        assert.equal(dbFailed.status, 'failed');
        assert.match(dbFailed.statusReason, /leads into \/dev /);
      } finally {
        rmSync(shm, { recursive: true, force: true });
      }
    });

    it('reads a sqlite: link again at each refresh: pointed at the store since, the refresh fails', async () => {
      const dir = mkdtempSync(join(docs, 'db-'));
      const db = new BetterSqlite3(join(dir, 'rooms.sqlite'));
      db.exec(
        "CREATE TABLE verifier_keys (id TEXT PRIMARY KEY, name TEXT); INSERT INTO verifier_keys VALUES ('k1', 'Atlas');",
      );
      db.close();
      const link = join(dir, 'link.sqlite');
      symlinkSync(join(dir, 'rooms.sqlite'), link);
      // Named as a table of the store: before this check, the refresh read the store's key rows.
      const res = await create({ type: 'database', url: `sqlite:${link}`, tables: ['verifier_keys'] });
      assert.equal(res.status, 202, res.text);
      assert.equal((await own.settled(res.body.id)).status, 'ready');

      unlinkSync(link);
      symlinkSync(join(own.dataDir, 'verifier.db'), link);
      await own.request('POST', `/api/sources/${res.body.id}/refresh`, { key: own.admin });
      const failed = await own.settled(res.body.id);
      assert.equal(failed.status, 'failed');
      assert.match(failed.statusReason, /leads into the verifier's data folder/);
    });
  });

  describe('api', () => {
    let server: http.Server;
    let url: string;
    const token = randomBytes(12).toString('hex');
    before(async () => {
      server = http.createServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${token}`) {
          res.writeHead(401).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            data: [
              { id: 'P-1', product: 'Kettle K2', price: { amount: 49, currency: 'EUR' }, stock: 120 },
              { id: 'P-2', product: 'Toaster T9', price: { amount: 89, currency: 'EUR' }, stock: 0 },
            ],
          }),
        );
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/products?api_key=${token}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('reads records with sealed headers; the credentials are never shown', async () => {
      const res = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'api', url, headers: { authorization: `Bearer ${token}` } },
      });
      assert.equal(res.status, 202);
      assert.ok(!res.text.includes(token), 'neither the header nor the query secret is shown');
      const ready = await v.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal(ready.documents, 2);
      const list = await v.request('GET', '/api/sources', { key: v.admin });
      assert.ok(!list.text.includes(token));
      const stored = await v.ctx.repo.getSource(res.body.id);
      assert.ok(stored && !JSON.stringify(stored).includes(token), 'the stored row holds the target sealed');
      const kettle = await verifyOne(v, 'The Kettle K2 has a stock of 80.');
      assert.equal(kettle.verdict, 'contradicted');
      assert.match(kettle.source, /#id=P-1$/);
      assert.ok(!kettle.source.includes(token), 'citations carry no query secret either');
    });

    it('fails with the reason when the endpoint refuses', async () => {
      const res = await v.request('POST', '/api/sources', { key: v.admin, body: { type: 'api', url } });
      const failed = await v.settled(res.body.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.statusReason, 'the api answered HTTP 401');
    });
  });

  describe('database', () => {
    it('reads SQLite tables read-only, each row cited by its primary key', async () => {
      const file = join(docs, 'hr.sqlite');
      const db = new BetterSqlite3(file);
      db.exec(
        "CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, city TEXT, team TEXT); INSERT INTO employees VALUES (7, 'Anna Muster', 'Bern', 'payroll'), (8, 'Luc Favre', 'Geneva', 'sales');",
      );
      db.close();
      const res = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: { type: 'database', url: `sqlite:${file}`, tables: ['employees'] },
      });
      const ready = await v.settled(res.body.id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal(ready.passages, 2);
      const anna = await verifyOne(v, 'Anna Muster is in the payroll team in Geneva.');
      assert.equal(anna.verdict, 'contradicted');
      assert.equal(anna.source, 'employees#id=7');

      const q = await v.request('POST', '/api/sources', {
        key: v.admin,
        body: {
          type: 'database',
          url: `sqlite:${file}`,
          query: "SELECT name, city FROM employees WHERE team = 'sales'",
          keyColumn: 'name',
        },
      });
      assert.equal((await v.settled(q.body.id)).passages, 1);
    });

    it("refuses the verifier's own store as a source, by any path that reaches it", async () => {
      // Its own embedded store, whatever the run's database: the store is what is being protected.
      const own = await startTestVerifier({ clock, env: { PARAPET_VERIFIER_DATABASE_URL: '' } });
      try {
        const store = join(own.dataDir, 'verifier.db');
        const viaLink = join(own.dataDir, 'innocent.sqlite');
        symlinkSync(store, viaLink);
        const viaHardLink = join(own.dataDir, 'hard.sqlite');
        linkSync(store, viaHardLink);
        for (const url of [
          `sqlite:${store}`,
          `sqlite://${own.dataDir}/./verifier.db`,
          `sqlite:${viaLink}`,
          `sqlite:${viaHardLink}`,
        ]) {
          const res = await own.request('POST', '/api/sources', {
            key: own.admin,
            body: { type: 'database', url, tables: ['verifier_keys'] },
          });
          assert.equal(res.status, 400, url);
          assert.match(res.body.message, /the verifier's (data folder|own files)/);
        }
        const list = await own.request('GET', '/api/sources', { key: own.admin });
        assert.equal(list.body.sources.length, 0, 'nothing was stored');
      } finally {
        await own.close();
      }
    });

    if (process.env.TEST_MYSQL_URL) {
      it('reads a MariaDB/MySQL table in a read-only transaction', async () => {
        const mysql = await import('mysql2/promise');
        const dbName = `vsrc_${randomBytes(5).toString('hex')}`;
        const conn = await mysql.createConnection({
          uri: process.env.TEST_MYSQL_URL!,
          multipleStatements: true,
        });
        try {
          await conn.query(
            `CREATE DATABASE ${dbName}; CREATE TABLE ${dbName}.suppliers (code VARCHAR(10) PRIMARY KEY, name TEXT, country TEXT); INSERT INTO ${dbName}.suppliers VALUES ('S-4', 'Nordic Steel', 'Norway');`,
          );
          const res = await v.request('POST', '/api/sources', {
            key: v.admin,
            body: { type: 'database', url: process.env.TEST_MYSQL_URL, tables: [`${dbName}.suppliers`] },
          });
          const ready = await v.settled(res.body.id);
          assert.equal(ready.status, 'ready', ready.statusReason);
          const s = await verifyOne(v, 'The supplier Nordic Steel is from the country Norway.');
          assert.equal(s.verdict, 'supported');
          assert.equal(s.source, `${dbName}.suppliers#code=S-4`);
          // Several statements in one query: refused by the server (the client does not allow them).
          const chained = await v.request('POST', '/api/sources', {
            key: v.admin,
            body: {
              type: 'database',
              url: process.env.TEST_MYSQL_URL,
              query: `SELECT code FROM ${dbName}.suppliers; COMMIT; DELETE FROM ${dbName}.suppliers; SELECT 1 AS code`,
              keyColumn: 'code',
            },
          });
          assert.equal((await v.settled(chained.body.id)).status, 'failed');
          const [left] = await conn.query(`SELECT count(*) AS n FROM ${dbName}.suppliers`);
          assert.equal(Number((left as Array<{ n: number }>)[0]!.n), 1);
        } finally {
          await conn.query(`DROP DATABASE IF EXISTS ${dbName}`);
          await conn.end();
        }
      });
    }

    if (process.env.TEST_DATABASE_URL) {
      it('reads a PostgreSQL table in a read-only transaction; the password is not shown', async () => {
        const schema = `vsrc_${randomBytes(5).toString('hex')}`;
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        try {
          await admin.query(`CREATE SCHEMA ${schema}`);
          await admin.query(
            `CREATE TABLE ${schema}.contracts (ref text PRIMARY KEY, customer text, renewal date)`,
          );
          await admin.query(
            `INSERT INTO ${schema}.contracts VALUES ('C-19', 'Helvetia Foods', '2027-01-31')`,
          );
          const u = new URL(process.env.TEST_DATABASE_URL!);
          u.password = 'not-shown-secret';
          const res = await v.request('POST', '/api/sources', {
            key: v.admin,
            body: { type: 'database', url: u.toString(), tables: [`${schema}.contracts`] },
          });
          assert.ok(!res.text.includes('not-shown-secret'));
          const ready = await v.settled(res.body.id);
          assert.equal(ready.status, 'ready', ready.statusReason);
          const c = await verifyOne(v, 'The contract of Helvetia Foods renews on 31 January 2027.');
          assert.equal(c.verdict, 'supported');
          assert.equal(c.source, `${schema}.contracts#ref=C-19`);
          const write = await v.request('POST', '/api/sources', {
            key: v.admin,
            body: {
              type: 'database',
              url: process.env.TEST_DATABASE_URL,
              query: `WITH gone AS (DELETE FROM ${schema}.contracts RETURNING *) SELECT * FROM gone`,
              keyColumn: 'ref',
            },
          });
          const refused = await v.settled(write.body.id);
          assert.equal(refused.status, 'failed');
          // refused by the read-only transaction, or earlier: a data-modifying WITH must be at the top level,
          // and the source query runs inside a derived table
          assert.match(refused.statusReason, /read-only transaction|top level/);
          // Several statements in one query could end the read-only transaction and write after it.
          const chained = await v.request('POST', '/api/sources', {
            key: v.admin,
            body: {
              type: 'database',
              url: process.env.TEST_DATABASE_URL,
              query: `SELECT ref FROM ${schema}.contracts; COMMIT; DELETE FROM ${schema}.contracts; SELECT 1 AS ref`,
              keyColumn: 'ref',
            },
          });
          const refused2 = await v.settled(chained.body.id);
          assert.equal(refused2.status, 'failed');
          assert.match(refused2.statusReason, /one statement/);
          const left = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.contracts`);
          assert.equal(left.rows[0].n, 1);
        } finally {
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        }
      });
    }
  });
});
