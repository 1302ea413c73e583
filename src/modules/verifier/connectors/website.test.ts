import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createOutbound } from '../../../platform/net/index.js';
import { crawlScope, crawlWebsite, parseAllowedHost } from './website.js';

// robots.txt Crawl-delay, read by the crawler itself on a loopback site. The waits go through the crawler's
// `sleep` parameter, recorded here and not slept: the test checks how long it asks to wait, never a clock.
describe('website crawl: robots.txt Crawl-delay', () => {
  let delay = '0';
  const served: string[] = [];
  const server = http.createServer((req, res) => {
    served.push(req.url ?? '/');
    if (req.url === '/robots.txt')
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nCrawl-delay: ${delay}\n`);
    const links = req.url === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>Page ${req.url}.</p>${links}`);
  });
  const outbound = createOutbound({ allowPrivate: true, timeoutMs: 10_000 });
  let url = '';
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await outbound.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function crawl(): Promise<number[]> {
    const waits: number[] = [];
    served.length = 0;
    const res = await crawlWebsite(
      { url, crawlDepth: 1 },
      [],
      {
        outbound,
        userAgent: 'ParapetVerifier/test (+https://example.invalid)',
        maxPages: 10,
        maxRows: 10,
        own: { dir: null, files: [] },
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    assert.equal(res.documents.length, 3);
    assert.deepEqual(served, ['/robots.txt', '/', '/a', '/b']);
    return waits;
  }

  it('waits the delay between two pages of the host, not before the first', async () => {
    delay = '4';
    const waits = await crawl();
    assert.equal(waits.length, 2, 'one wait before each page after the first');
    // Each wait is the delay less the time since the previous request (milliseconds on loopback).
    for (const w of waits) assert.ok(w > 0 && w <= 4_000, `waits up to 4 s (asked ${w} ms)`);
  });

  it('caps a longer delay at 5 s, and does not wait without one', async () => {
    delay = '600';
    const capped = await crawl();
    assert.equal(capped.length, 2);
    for (const w of capped) assert.ok(w > 0 && w <= 5_000, `capped at 5 s (asked ${w} ms)`);
    delay = '0';
    assert.deepEqual(await crawl(), []);
  });
});

// Scheme and default ports, which a loopback test without TLS cannot serve: the scope rule itself.
describe('website crawl: same origin', () => {
  it('compares scheme, host and port, default ports as written; http:80 may upgrade to https:443', () => {
    const plain = crawlScope('http://wiki.example.org/start', []);
    for (const url of [
      'http://wiki.example.org/x',
      'http://WIKI.example.org:80/x',
      'http://wiki.example.org./x',
    ])
      assert.equal(plain(url), true, url);
    assert.equal(plain('https://wiki.example.org/x'), true, 'the upgrade to its own TLS address');
    for (const url of [
      'http://wiki.example.org:8080/x',
      'https://wiki.example.org:80/x',
      'https://wiki.example.org:8443/x',
      'http://other.example.org/x',
    ])
      assert.equal(plain(url), false, url);

    const tls = crawlScope('https://wiki.example.org:8443/', []);
    assert.equal(tls('https://wiki.example.org:8443/a'), true);
    for (const url of [
      'http://wiki.example.org:8443/a',
      'https://wiki.example.org/a',
      'http://wiki.example.org/a',
    ])
      assert.equal(tls(url), false, `${url}: no downgrade, no other port`);
  });

  it("reads a bare allowedHosts entry at the start URL's scheme and port, host:port at that port", () => {
    const scope = crawlScope('https://wiki.example.org/', ['docs.example.org', '[::1]:8080', 'not a host']);
    assert.equal(scope('https://docs.example.org/a'), true);
    assert.equal(scope('https://docs.example.org:443/a'), true);
    assert.equal(scope('http://docs.example.org/a'), false, "not the start URL's scheme");
    assert.equal(scope('https://docs.example.org:9000/a'), false, 'not another port');
    assert.equal(scope('http://[::1]:8080/a'), true);
    assert.equal(scope('https://[::1]:8080/a'), true, 'the named port, either scheme');
    assert.equal(scope('http://[::1]/a'), false);
  });

  it('parses an entry as a host or IP literal with an optional port, nothing else', () => {
    assert.deepEqual(parseAllowedHost(' Docs.Example.org. '), { host: 'docs.example.org', port: null });
    assert.deepEqual(parseAllowedHost('fe80::1'), { host: '[fe80::1]', port: null });
    assert.deepEqual(parseAllowedHost('[::1]:8443'), { host: '[::1]', port: 8443 });
    assert.deepEqual(parseAllowedHost('0xa9fea9fe'), { host: '169.254.169.254', port: null });
    for (const bad of ['', 'a@b.org', 'http://b.org', 'b.org/x', 'b.org:0', 'b.org:65536', '[::1', 'a..b'])
      assert.equal(parseAllowedHost(bad), null, bad);
  });
});
