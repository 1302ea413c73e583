import { isIP } from 'node:net';
import robotsParserModule from 'robots-parser';
import { OutboundError } from '../../../platform/net/index.js';
import { htmlToText } from '../html-text.js';
import type {
  ConnectorDeps,
  ConnectorResult,
  FetchedDocument,
  PreviousDocument,
  SourceTarget,
} from './types.js';
import { SourceError } from './types.js';

/** Largest page read; the rest of a bigger page is dropped (it is still parsed up to there). */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** robots.txt Crawl-delay is honoured up to this many seconds between two requests to one host. */
const MAX_CRAWL_DELAY_S = 5;
const PAGE_TIMEOUT_MS = 15_000;

interface RobotsRules {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}
// The package is CommonJS and its types declare an ES default export, which NodeNext does not see as callable.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => RobotsRules;
type Robots = RobotsRules | null;

interface QueueItem {
  url: string;
  depth: number;
}

/** The page address a citation shows and the crawl compares: no fragment, no default port. */
export function normalizeUrl(raw: string, base?: string): string | null {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  if (u.username || u.password) return null;
  return u.toString();
}

/** The longest host name DNS allows; an allowedHosts entry may add `:port` to it. */
const MAX_HOST_CHARS = 253;

/** An `allowedHosts` entry as the crawl reads it: a host (as WHATWG URL writes it) and the port it names. */
export interface AllowedHost {
  host: string;
  port: number | null;
}

/** A host as the crawl compares it: lower case, IPv6 in brackets, without trailing dots ("wiki." is wiki). */
function siteHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

function sitePort(u: URL): number {
  return u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/**
 * Reads one `allowedHosts` entry: a host name or IP literal (IPv6 bare or in brackets), optionally with
 * `:port`. Null for anything else (an e-mail address, a URL, a path, spaces, an empty label, a label over 63
 * characters): such an entry names no site, and reading it as one would follow links nobody allowed.
 */
export function parseAllowedHost(raw: string): AllowedHost | null {
  const entry = raw.trim();
  if (entry === '' || entry.length > MAX_HOST_CHARS + 6) return null;
  const text = isIP(entry) === 6 ? `[${entry}]` : entry;
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::([0-9]{1,5}))?$/.exec(text);
  if (!m) return null;
  let u: URL;
  try {
    u = new URL(`http://${m[1]}/`);
  } catch {
    return null;
  }
  const host = siteHost(u.hostname);
  if (host === '' || host.length > MAX_HOST_CHARS) return null;
  if (!host.startsWith('[') && !host.split('.').every((label) => label.length >= 1 && label.length <= 63))
    return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { host, port };
}

/**
 * Which URLs a crawl may fetch, for links and redirects alike: the start URL's origin (scheme, host and
 * port, default ports counted as written: http://wiki/ is http://wiki:80/). A site on another port of the
 * same host is another service, not more of the wiki. An allowedHosts entry without a port allows that
 * host on the start URL's scheme and port; one with a port allows that host and port over http or https
 * (the port names the service). Every http site on port 80 also counts on https at 443: the usual upgrade
 * redirect of a site to its own TLS address (never the reverse).
 */
export function crawlScope(startUrl: string, allowedHosts: readonly string[]): (url: string) => boolean {
  const start = new URL(startUrl);
  const sites = new Set<string>();
  const add = (scheme: string, host: string, port: number) => {
    sites.add(`${scheme}//${host}:${port}`);
    if (scheme === 'http:' && port === 80) sites.add(`https://${host}:443`);
  };
  add(start.protocol, siteHost(start.hostname), sitePort(start));
  for (const raw of allowedHosts) {
    // Refused when the source is configured; one stored before that check follows none of it.
    const entry = parseAllowedHost(raw);
    if (entry === null) continue;
    if (entry.port === null) add(start.protocol, entry.host, sitePort(start));
    else for (const scheme of ['http:', 'https:']) add(scheme, entry.host, entry.port);
  }
  return (url) => {
    const u = new URL(url);
    return sites.has(`${u.protocol}//${siteHost(u.hostname)}:${sitePort(u)}`);
  };
}

/**
 * Crawls a website breadth-first from its URL to `crawlDepth` (0 = the start page), within its origin or
 * the allowed hosts (`crawlScope`), honouring robots.txt (and its Crawl-delay) for our User-Agent, with a
 * page limit and a size limit per page. Pages stored before are asked for with If-None-Match / If-Modified-Since; a 304
 * keeps the stored document and follows its stored links.
 */
export async function crawlWebsite(
  target: SourceTarget,
  previous: PreviousDocument[],
  deps: ConnectorDeps,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<ConnectorResult> {
  const start = normalizeUrl(target.url);
  if (!start) throw new SourceError('the website URL must be http(s) without credentials');
  const inScope = crawlScope(start, target.allowedHosts ?? []);
  const known = new Map(previous.map((p) => [p.citation, p]));
  const robots = new Map<string, Robots>();
  const lastRequest = new Map<string, number>();
  const result: ConnectorResult = { documents: [], unchanged: [], skipped: [] };
  const seen = new Set<string>([start]);
  const queue: QueueItem[] = [{ url: start, depth: 0 }];
  let fetched = 0;

  const robotsFor = async (url: URL): Promise<Robots> => {
    if (robots.has(url.origin)) return robots.get(url.origin) ?? null;
    const robotsUrl = `${url.origin}/robots.txt`;
    let parsed: Robots = null;
    try {
      const res = await deps.outbound.request(robotsUrl, {
        headers: { 'user-agent': deps.userAgent },
        timeoutMs: PAGE_TIMEOUT_MS,
        maxResponseBytes: MAX_PAGE_BYTES,
      });
      // 4xx: no rules (everything allowed); 5xx or unreachable: assume everything is disallowed (RFC 9309).
      if (res.status >= 200 && res.status < 300) parsed = robotsParser(robotsUrl, res.body);
      else if (res.status >= 500) parsed = robotsParser(robotsUrl, 'User-agent: *\nDisallow: /');
    } catch (err) {
      if (url.toString() === start) throw toSourceError(err, 'robots.txt');
      parsed = robotsParser(robotsUrl, 'User-agent: *\nDisallow: /');
    }
    robots.set(url.origin, parsed);
    return parsed;
  };

  while (queue.length > 0) {
    const item = queue.shift()!;
    if (fetched >= deps.maxPages) {
      result.skipped.push({ what: item.url, reason: 'page limit' });
      continue;
    }
    const url = new URL(item.url);
    const rules = await robotsFor(url);
    if (rules && rules.isAllowed(item.url, deps.userAgent) === false) {
      result.skipped.push({ what: item.url, reason: 'robots.txt' });
      continue;
    }
    const delay = Math.min(MAX_CRAWL_DELAY_S, Number(rules?.getCrawlDelay(deps.userAgent) ?? 0)) * 1000;
    const since = Date.now() - (lastRequest.get(url.host) ?? 0);
    if (delay > 0 && since < delay) await sleep(delay - since);
    lastRequest.set(url.host, Date.now());
    fetched++;
    const page = await fetchPage(item.url, known.get(item.url), deps, inScope);
    if (page.kind === 'skip') {
      if (item.url === start && item.depth === 0 && result.documents.length === 0 && queue.length === 0)
        throw new SourceError(`the start page could not be read: ${page.reason}`);
      result.skipped.push({ what: item.url, reason: page.reason });
      continue;
    }
    let links: string[];
    if (page.kind === 'unchanged') {
      result.unchanged.push(page.previous.id);
      links = page.previous.links ? (JSON.parse(page.previous.links) as string[]) : [];
    } else {
      links = page.nofollow ? [] : page.links;
      if (page.document) result.documents.push(page.document);
      else result.skipped.push({ what: item.url, reason: 'noindex' });
    }
    if (item.depth >= target.crawlDepth) continue;
    for (const href of links) {
      const next = normalizeUrl(href, page.finalUrl);
      if (!next || seen.has(next)) continue;
      if (!inScope(next)) continue;
      seen.add(next);
      queue.push({ url: next, depth: item.depth + 1 });
    }
  }
  return result;
}

type PageOutcome =
  | { kind: 'skip'; reason: string; finalUrl: string }
  | { kind: 'unchanged'; previous: PreviousDocument; finalUrl: string }
  | { kind: 'page'; document: FetchedDocument | null; links: string[]; nofollow: boolean; finalUrl: string };

async function fetchPage(
  url: string,
  previous: PreviousDocument | undefined,
  deps: ConnectorDeps,
  inScope: (url: string) => boolean,
): Promise<PageOutcome> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = {
      'user-agent': deps.userAgent,
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.8',
    };
    if (previous && hop === 0) {
      if (previous.etag) headers['if-none-match'] = previous.etag;
      if (previous.last_modified) headers['if-modified-since'] = previous.last_modified;
    }
    let res: Awaited<ReturnType<ConnectorDeps['outbound']['request']>>;
    try {
      // The server's client keeps up to an API source's 20 MB; a page is cut at its own, smaller limit.
      res = await deps.outbound.request(current, {
        headers,
        timeoutMs: PAGE_TIMEOUT_MS,
        maxResponseBytes: MAX_PAGE_BYTES,
      });
    } catch (err) {
      return { kind: 'skip', reason: toSourceError(err, 'page').message, finalUrl: current };
    }
    if (res.status === 304 && previous) return { kind: 'unchanged', previous, finalUrl: current };
    if (res.status >= 300 && res.status < 400 && res.headers['location']) {
      const next = normalizeUrl(res.headers['location'], current);
      if (!next || !inScope(next))
        return { kind: 'skip', reason: 'redirect off the site', finalUrl: current };
      current = next;
      continue;
    }
    if (res.status !== 200) return { kind: 'skip', reason: `HTTP ${res.status}`, finalUrl: current };
    const type = (res.headers['content-type'] ?? 'text/html').toLowerCase();
    if (type.includes('text/plain')) {
      return {
        kind: 'page',
        document: {
          citation: current,
          title: null,
          text: res.body,
          etag: res.headers['etag'] ?? null,
          lastModified: res.headers['last-modified'] ?? null,
          links: [],
        },
        links: [],
        nofollow: false,
        finalUrl: current,
      };
    }
    if (!type.includes('html'))
      return { kind: 'skip', reason: `content type ${type.split(';')[0]}`, finalUrl: current };
    const h = htmlToText(res.body);
    const links = h.nofollow ? [] : h.links;
    return {
      kind: 'page',
      document: h.noindex
        ? null
        : {
            citation: current,
            title: h.title,
            text: h.title ? `${h.title}\n\n${h.text}` : h.text,
            etag: res.headers['etag'] ?? null,
            lastModified: res.headers['last-modified'] ?? null,
            links,
          },
      links,
      nofollow: h.nofollow,
      finalUrl: current,
    };
  }
  return { kind: 'skip', reason: 'too many redirects', finalUrl: current };
}

function toSourceError(err: unknown, what: string): SourceError {
  if (err instanceof OutboundError) return new SourceError(`${what}: ${err.code} (${err.message})`);
  return new SourceError(`${what}: ${(err as Error).message}`);
}
