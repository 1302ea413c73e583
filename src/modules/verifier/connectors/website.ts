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

/**
 * Crawls a website breadth-first from its URL to `crawlDepth` (0 = the start page), on the same host or
 * the allowed ones, honouring robots.txt (and its Crawl-delay) for our User-Agent, with a page limit and a
 * size limit per page. Pages stored before are asked for with If-None-Match / If-Modified-Since; a 304
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
  const hosts = new Set([
    new URL(start).hostname,
    ...(target.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
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
    const page = await fetchPage(item.url, known.get(item.url), deps, hosts);
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
      if (!hosts.has(new URL(next).hostname)) continue;
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
  hosts: Set<string>,
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
      if (!next || !hosts.has(new URL(next).hostname))
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
