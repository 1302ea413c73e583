import type { ServerResponse } from 'node:http';
import type { LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { AppError } from '../../platform/errors/index.js';
import { jsonBodyText, parseJsonText } from '../../platform/http/index.js';
import {
  type AddressPolicy,
  guardedConnector,
  type ResolvedAddress,
  type Resolver,
} from '../../platform/net/index.js';
import type { VaultSession } from '../dlp/index.js';
import type { UsageRecord } from '../gateway/index.js';
import { type CancelSignal, DEFAULT_BASE_URLS, estimateCost, findModel } from '../providers/index.js';
import { type Protection, type ProtectedCaller, rehydrateJson } from '../protection/index.js';
import {
  isNetProvider,
  NOT_USAGE,
  type NetProvider,
  type Operation,
  requestTexts,
  routeOf,
  unreadableShape,
} from './formats.js';
import { uninspectedOf } from './settings.js';
import { BATCH_RESULTS, type BatchSessions, JsonlRehydrator, type NotRehydrated } from './batch-results.js';
import { EventCutter } from './event-cutter.js';
import { StreamRelay } from './streams.js';
import {
  clientHeaders,
  decodeBody,
  providerErrorBody,
  refuseServiceSecrets,
  streamErrorFrame,
  upstreamHeaders,
} from './wire.js';

/** The part of each provider's default address that its SDKs put in the request path themselves. */
const PATH_PREFIX: Record<NetProvider, string> = {
  openai: '/v1',
  mistral: '/v1',
  groq: '/openai/v1',
  anthropic: '',
  google: '',
  cohere: '',
};

/** Where the detection events of the network proxy say the text came from. */
export const NETPROXY_PATH = '/proxy/:provider/*';

/** A usage row of the network proxy: the provider proxy's rows (endpoint `proxy`). */
export type NetUsage = Omit<UsageRecord, 'conversationId'>;

export interface NetProxyDeps {
  protection: Protection;
  /** Force mode: throws 403 gateway_force_blocked while direct proxy access is off. */
  assertAllowed(orgId: string): Promise<void>;
  recordUsage(r: NetUsage): void;
  /** PARAPET_PROVIDER_<ID>_BASE_URL overrides. */
  baseUrls: Record<string, string>;
  /** Every upstream connection passes it (guarded lookup, IP literals, the connected peer). */
  addressPolicy: AddressPolicy;
  /**
   * Largest request body once decompressed (the server's body limit applies to what arrives), and the most
   * of one event a stream relayed as it came is held back for.
   */
  bodyLimit: number;
  /** No byte from the provider for this long (headers or between chunks) ends the call. */
  idleTimeoutMs?: number;
  /** How provider host names are resolved (transparent mode: its own resolver, never through itself). */
  lookup?: LookupFunction;
  /**
   * Anthropic batch id → the session its requests were tokenized into, so the batch's results are
   * restored when fetched (docs/netproxy.md, "Anthropic batch results"). Without it they come back as the
   * provider stored them.
   */
  batches?: BatchSessions;
}

export interface NetCall {
  provider: NetProvider;
  op: Operation | null;
  url: string;
  /** The upstream URL's origin and path with query, as read once in prepare (send does not parse it again). */
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string | string[]>;
  /** The body as it came, or the tokenized body's JSON text (sent as it is, not copied into a buffer). */
  body: Buffer | string | undefined;
  session: VaultSession | null;
  /** The vault's commit of `session`, going on while the request travels upstream (see confirmStored). */
  stored: Promise<void> | undefined;
  tokenCount: number;
  stream: boolean;
  sse: boolean;
  model: string;
  promptChars: number;
  orgId: string;
  /** Anthropic batch objects: their `results_url` on the provider's host, moved to the client's base. */
  resultsUrl?: { from: string; to: string };
  /** An Anthropic batch's results GET: the session of the batch's creation, or why there is none. */
  batchResults?: VaultSession | NotRehydrated;
}

type Incoming = Record<string, string | string[] | undefined>;
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const header = (h: Incoming, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The network proxy: each provider's native API at /proxy/:provider/*, tokenized on the way up and
 * rehydrated on the way down, over the shared protection pipeline. Requests it cannot read (other paths,
 * other methods) are forwarded as they are, and so is a body in which nothing was found.
 */
/** The transparent mode's lookup as the guarded connector's resolver: its answers pass the same policy. */
function resolverOf(lookup: LookupFunction): Resolver {
  return (hostname) =>
    new Promise<ResolvedAddress[]>((resolve, reject) => {
      lookup(hostname, { all: true }, (err, addresses) => {
        if (err) reject(err);
        else
          resolve(
            (addresses as unknown as { address: string; family: number }[]).map((a) => ({
              address: a.address,
              family: a.family === 6 ? 6 : 4,
            })),
          );
      });
    });
}

// Anthropic's message batch ids, as its answers name them (`msgbatch_…`).
const BATCH_ID = /^msgbatch_[A-Za-z0-9_-]{1,119}$/;

const ODD_PATH = /[%\\;]|\/\.|\/\/|\/$/;

// Anthropic's answers that are Message Batch objects (create, list, retrieve, cancel): each names the
// batch's `results_url` on Anthropic's own host.
// Without regard to case, as routeOf matches the operations (formats.ts); ids are captured as written.
const ANTHROPIC_BATCH_OBJECTS = /^\/v1\/messages\/batches(?:\/[^/]+(?:\/cancel)?)?$/i;

/**
 * `results_url` of the Anthropic batch objects in an answer (one batch, or a list's `data`) moved from the
 * provider's host to the base the client reached the proxy at. The SDK fetches that URL as it is, with its
 * default headers: left on Anthropic's host, the results GET went there directly, carrying the caller's
 * `X-Service-Key` (the organization's Parapet key) to the provider and bypassing the proxy.
 */
function moveResultsUrls(body: unknown, move: { from: string; to: string }): boolean {
  if (!isObj(body)) return false;
  const batches = Array.isArray(body['data']) ? body['data'] : [body];
  let moved = false;
  for (const b of batches) {
    const url = isObj(b) ? b['results_url'] : undefined;
    if (typeof url !== 'string' || !url.startsWith(move.from)) continue;
    (b as Json)['results_url'] = move.to + url.slice(move.from.length);
    moved = true;
  }
  return moved;
}

/**
 * Paths that are not read are relayed as they came, so a request must not reach an inspected operation in
 * a form the matching does not see: `/v1/chat/%63ompletions` or `/v1/chat/completions/` (a provider may
 * decode or ignore them) and a body sent with another method went up with personal data in clear. Refused
 * instead (fail closed); SDKs never send these. Only paths ODD_PATH marks (`%`, `\`, `/.`, `//`, a trailing
 * `/`), or non-POST calls with a body, are looked at twice.
 */
function refuseDisguised(provider: NetProvider, method: string, path: string, hasBody: boolean): void {
  // Dot segments and backslashes too: the upstream URL is parsed as a URL, which resolves `/./`, `/x/../`,
  // `%2e` segments and `\` before the request leaves, so the provider gets the operation's plain path.
  const odd = ODD_PATH.test(path);
  if (!odd && (method === 'POST' || !hasBody)) return;
  // Backslashes and runs of slashes are made one `/` before the path is read as a URL: a leading `//v1`
  // (or `/\v1`) would otherwise be read as a host name, and the path after it lost to the check.
  let canonical = path.replace(/[\\/]+/g, '/');
  try {
    canonical = new URL(canonical, 'http://path.invalid').pathname;
    // Decoded until stable (a server behind the provider's front may decode again: `%252F`), then read as a
    // server that splits on what the escapes hid would: the path ends at a `?` or `#`, and `;params` of a
    // segment are dropped (as servlet containers do).
    for (let i = 0; i < 4 && canonical.includes('%'); i++) canonical = decodeURIComponent(canonical);
  } catch {
    // a malformed escape matches nothing the provider would read either; judged as written
  }
  canonical = canonical
    .replace(/[?#].*$/s, '')
    .replace(/;[^/]*/g, '')
    .replace(/[\\/]+/g, '/')
    .replace(/\/+$/, '');
  if (!routeOf(provider, 'POST', canonical)) return;
  if (method !== 'POST' && !hasBody) return;
  throw new AppError(
    'invalid_request',
    `The network proxy inspects POST ${canonical} only as the provider's SDK sends it (POST, no percent-escapes, dot segments, backslashes, doubled slashes or trailing slash); this ${method} would reach it uninspected, so it was not sent.`,
  );
}

/** A provider's upstream address without the part its SDKs put in the path. */
interface Root {
  href: string;
  origin: string;
  /** Its path, without a trailing slash ('' for a bare host). */
  path: string;
}

/**
 * The upstream URL of a request, refused unless a URL parser reads its path and query exactly as written.
 * send() builds the upstream URL with a URL parser, which drops a fragment (`#…`), resolves dot segments
 * (`/./`, `/x/../`, `%2e`), reads `\` as `/` and escapes some characters: `…/chat/completions#x` matched no
 * operation, went up as `POST …/chat/completions`, and the provider got the body uninspected. Choosing the
 * route on this parse, and refusing what it reads otherwise, leaves no second reading of the path.
 */
function upstreamUrl(root: Root, pathAndQuery: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(root.href + pathAndQuery);
  } catch {
    // not a URL at all: refused below
  }
  // A bare `?` ends nothing: the parse drops it, and the request goes up the same without it.
  const written = root.path + (pathAndQuery.endsWith('?') ? pathAndQuery.slice(0, -1) : pathAndQuery);
  if (!url || url.origin !== root.origin || url.pathname + url.search !== written) {
    throw new AppError(
      'invalid_request',
      "The request's path is one a URL parser reads otherwise than written (a fragment '#', dot segments, a backslash, or characters it escapes), so the provider would get another path than the one the proxy read: it was not sent. Send the path as the provider's SDK does.",
    );
  }
  return url;
}

/**
 * The organization's `uninspected: refuse`: a body sent to a path the proxy does not read (images, audio,
 * assistants, a provider's new operation, and file uploads: a Batch or fine-tuning JSONL file is prompts
 * in bulk, a text file is text) would reach the provider in clear, so it is refused whatever its type or
 * coding. Requests without a body (lists, gets, cancels, deletes) still go through. The body is not read
 * at all: telling JSON from the rest decoded a whole upload (25 MB of audio made a string to look at one
 * character), and a body that is not JSON is no safer for it.
 */
function refuseUninspected(provider: NetProvider, method: string, path: string): never {
  throw new AppError(
    'forbidden',
    `The network proxy does not inspect ${method} ${path} on ${provider}, and this organization refuses what it cannot inspect (network proxy setting 'uninspected': 'refuse'), so it was not sent. An administrator can set it to 'forward'; docs/netproxy.md lists the inspected operations.`,
  );
}

export function createNetProxy(deps: NetProxyDeps) {
  const idleTimeoutMs = deps.idleTimeoutMs ?? 120_000;
  const agent = new Agent({
    headersTimeout: idleTimeoutMs,
    bodyTimeout: idleTimeoutMs,
    keepAliveTimeout: 30_000,
    // The requests carry the callers' provider keys: the outbound policy of every target, at connection,
    // over the transparent mode's own resolver when it has one (never through this machine's interception).
    connect: guardedConnector(deps.addressPolicy, deps.lookup ? { resolver: resolverOf(deps.lookup) } : {}),
  });
  const roots = new Map<NetProvider, Root>();
  // Model calls are usage; a models list or a file upload forwarded as it is is not.
  const note = (row: NetUsage & { op: Operation | null }) => {
    if (row.op && !NOT_USAGE.has(row.op)) deps.recordUsage(row);
  };

  function rootOf(provider: NetProvider): Root {
    let root = roots.get(provider);
    if (root === undefined) {
      const base = (deps.baseUrls[provider] ?? DEFAULT_BASE_URLS[provider] ?? '').replace(/\/+$/, '');
      const prefix = PATH_PREFIX[provider];
      const href = prefix && base.endsWith(prefix) ? base.slice(0, -prefix.length) : base;
      const parsed = new URL(href);
      root = { href, origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
      roots.set(provider, root);
    }
    return root;
  }

  return {
    /** Reads, checks and tokenizes the request; throws AppError (the spec's body) before anything is sent. */
    async prepare(
      caller: ProtectedCaller,
      providerParam: string,
      method: string,
      pathAndQuery: string,
      headers: Incoming,
      raw: Buffer | undefined,
      /** The address the client reached this provider at (`…/proxy/anthropic`, or the provider's host). */
      clientBase?: string,
    ): Promise<NetCall> {
      if (!isNetProvider(providerParam)) {
        throw new AppError(
          'not_found',
          `Unknown provider '${providerParam}'. The network proxy serves openai, anthropic, google, mistral, groq and cohere.`,
        );
      }
      const provider = providerParam;
      await deps.assertAllowed(caller.org.id);
      const q = pathAndQuery.indexOf('?');
      refuseServiceSecrets(headers, q === -1 ? '' : pathAndQuery.slice(q));
      // The route is chosen on exactly the path and query that go up (see upstreamUrl).
      const root = rootOf(provider);
      const target = upstreamUrl(root, pathAndQuery);
      const path = target.pathname.slice(root.path.length);
      const query = target.search;
      const route = routeOf(provider, method, path);
      const call: NetCall = {
        provider,
        op: route?.op ?? null,
        url: target.href,
        origin: target.origin,
        path: target.pathname + target.search,
        method,
        headers: {},
        body: raw && raw.length > 0 ? raw : undefined,
        session: null,
        stored: undefined,
        tokenCount: 0,
        stream: false,
        sse: false,
        model: '',
        promptChars: 0,
        orgId: caller.org.id,
      };
      // Before the route too: `//v1/messages` matches the route, yet the provider may read it otherwise.
      refuseDisguised(provider, method, path, call.body !== undefined);
      if (provider === 'anthropic' && clientBase && ANTHROPIC_BATCH_OBJECTS.test(path)) {
        const from = `${root.href}/v1/messages/batches/`;
        const to = `${clientBase.replace(/\/+$/, '')}/v1/messages/batches/`;
        if (from !== to) call.resultsUrl = { from, to };
      }
      if (!route) {
        if (raw && raw.length > 0 && uninspectedOf(caller.org.settings) === 'refuse')
          refuseUninspected(provider, method, path);
        const results = provider === 'anthropic' && method === 'GET' ? BATCH_RESULTS.exec(path) : null;
        // Looked up under the caller's organization only: another's record of the same id is never read.
        if (results?.[1] && deps.batches)
          call.batchResults = await deps.batches.sessionOf(caller.org.id, results[1]);
        const rehydrating = typeof call.batchResults === 'object';
        call.headers = upstreamHeaders(headers, false, call.resultsUrl !== undefined || rehydrating);
        return call;
      }
      const decoded = decodeBody(raw ?? Buffer.alloc(0), header(headers, 'content-encoding'), deps.bodyLimit);
      const source = jsonBodyText(decoded);
      const parsed = parseJsonText(source);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new AppError('invalid_request', 'The request body must be a JSON object.');
      const body = parsed as Json;
      const unreadable = unreadableShape(route.op, body);
      if (unreadable) {
        throw new AppError(
          'invalid_request',
          `The request body cannot be inspected: ${unreadable}. It was not sent.`,
        );
      }
      const texts = requestTexts(route.op, body, route.streamByPath);
      call.stream = texts.stream;
      call.sse = !route.streamByPath || /(?:^|&|\?)alt=sse(?:&|$)/.test(query);
      call.model = texts.model || /\/(?:models|tunedModels)\/([^/:]+):/i.exec(path)?.[1] || '';
      for (const f of texts.fields) call.promptChars += f.text.length;
      if (route.injection) {
        // The event's endpoint names the provider (a checked id, so the path stays short and known):
        // a SIEM reader sees which service the attack was aimed at.
        await deps.protection.checkPrompt(caller, texts.prompt, NETPROXY_PATH.replace(':provider', provider));
      }
      // Each request has its own vault session, rehydrated from memory within the request. Its commit
      // overlaps the upstream call: the tokenized body holds no original, and confirmStored holds the
      // answer back until the session is stored.
      const outcome = await deps.protection.tokenize(caller, texts.fields, {
        cacheSession: false,
        deferCommit: true,
      });
      call.session = outcome.session;
      call.stored = outcome.stored;
      call.tokenCount = outcome.tokenCount;
      const changed = outcome.tokenCount > 0;
      if (changed) {
        // Only the strings and keys that received tokens are rewritten in the text as it came: every other
        // byte (numbers beyond 2^53, spacing, escapes, key order) reaches the provider as the caller sent it.
        call.body = texts.rewrite(source);
      }
      call.headers = upstreamHeaders(
        headers,
        changed,
        call.session !== null || call.resultsUrl !== undefined,
      );
      // The body was read as UTF-8 JSON, and is declared as what was inspected even when it goes up as its
      // own bytes: a provider that honoured another declared charset (UTF-7 reads `+AEA-` as "@") would
      // read a text that was never inspected.
      call.headers['content-type'] = 'application/json';
      return call;
    },

    /** Opens the upstream call; resolves with its status and headers, the body still to read. */
    send(call: NetCall, signal: CancelSignal): Promise<Dispatcher.ResponseData> {
      return agent.request({
        origin: call.origin,
        path: call.path,
        method: call.method as Dispatcher.HttpMethod,
        headers: call.headers,
        ...(call.body ? { body: call.body } : {}),
        signal,
      });
    },

    /**
     * Waits for the vault's commit of the call's session before any of `up` is relayed: an answer that
     * names its session (x-svc-vault-session) never arrives before the session is stored. When the commit
     * failed the provider's answer is dropped and the error thrown (the request fails as if tokenization
     * had: nothing of it reaches the client).
     */
    async confirmStored(call: NetCall, up: Dispatcher.ResponseData): Promise<void> {
      if (!call.stored) return;
      try {
        await call.stored;
      } catch (err) {
        // Destroyed without a reader: its abort error has nowhere else to go.
        up.body.on('error', () => {});
        up.body.destroy();
        note(usageRow(call, null, 'error'));
        throw err;
      }
    },

    /** The status and body of a failure to reach the provider, in the provider's own error format. */
    failure(call: NetCall, err: unknown): { status: number; body: unknown } {
      const code = (err as { code?: string }).code ?? '';
      const timeout = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      const status = timeout ? 504 : 502;
      const message = timeout
        ? `Parapet network proxy: ${call.provider} sent no answer in time.`
        : code === 'ELOOP'
          ? `Parapet network proxy: ${call.provider} was not called, its address resolved to this proxy (check PARAPET_INTERCEPT_DNS).`
          : `Parapet network proxy: ${call.provider} could not be reached.`;
      note(usageRow(call, null, 'error'));
      return { status, body: providerErrorBody(call.provider, status, message) };
    },

    /**
     * Writes the provider's answer to the client: as it came when nothing was tokenized, else rehydrated
     * (whole bodies at once, streams event by event). Returns the number of tokens restored. `own` (the
     * server's headers of this reply, a copy) is taken over: the response headers are written into it.
     */
    async relay(
      call: NetCall,
      up: Dispatcher.ResponseData,
      res: ServerResponse,
      own: Record<string, string | number | string[]>,
    ): Promise<number> {
      const svc: Record<string, string> = { 'x-svc-tokenized-count': String(call.tokenCount) };
      if (call.session) svc['x-svc-vault-session'] = call.session.id;
      if (typeof call.batchResults === 'string') svc['x-svc-rehydration'] = call.batchResults;
      else if (call.batchResults && up.statusCode < 300) {
        return relayBatchResults(call.batchResults, up, res, own, svc, deps.bodyLimit);
      }
      const type = String(up.headers['content-type'] ?? '');
      const isSse = type.includes('text/event-stream');
      // Gemini without alt=sse streams a JSON array, Cohere v1 chat one JSON object a line (whatever type
      // either declares).
      const streamed = call.stream && up.statusCode < 300;
      const ndjson = !isSse && streamed && call.op === 'cohere-v1-chat';
      const isStream = isSse || ndjson || (call.op === 'gemini-generate' && streamed);
      const session = call.session;

      if (!isStream && (session || (call.resultsUrl && up.statusCode < 300))) {
        const body = decompressed(up);
        // undici's own reader when the body needs no decoding: no async iteration per chunk.
        const text = body === up.body ? await up.body.text() : await readAll(body);
        let out = text;
        let restored = 0;
        let reported: Json | null = null;
        try {
          const parsed = JSON.parse(text) as unknown;
          restored = session ? rehydrateJson(parsed, session.map) : 0;
          const moved = call.resultsUrl ? moveResultsUrls(parsed, call.resultsUrl) : false;
          reported = parsed as Json;
          // A batch created: which session its results are restored with, stored before the client
          // learns the batch's id (and so before it can fetch the results).
          const batchId = isObj(parsed) ? parsed['id'] : undefined;
          if (
            call.op === 'anthropic-batches' &&
            session &&
            deps.batches &&
            up.statusCode < 300 &&
            typeof batchId === 'string' &&
            BATCH_ID.test(batchId)
          )
            await deps.batches.record(call.orgId, batchId, session.id);
          // An answer in which nothing was restored or moved goes out as it came (not serialized again).
          if (restored > 0 || moved) out = JSON.stringify(parsed);
        } catch {
          // Not JSON (an upstream's HTML error page): relayed as it came.
        }
        // Written as the string: its bytes are counted, not copied into a buffer of their own first.
        const head = Object.assign(own, clientHeaders(up.headers, true), svc);
        head['x-svc-rehydrated-count'] = String(restored);
        head['content-length'] = String(Buffer.byteLength(out));
        res.writeHead(up.statusCode, head);
        res.end(out);
        note(usageRow(call, up.statusCode < 300 ? reported : null, up.statusCode < 300 ? 'ok' : 'error'));
        return restored;
      }

      if (!session) {
        res.writeHead(up.statusCode, {
          ...own,
          ...clientHeaders(up.headers, false),
          ...svc,
          'x-svc-rehydrated-count': '0',
          ...(up.headers['content-length'] ? { 'content-length': String(up.headers['content-length']) } : {}),
        });
        const outcome = await pipeRaw(up, res, call, isSse, deps.bodyLimit);
        note(usageRow(call, null, outcome));
        return 0;
      }

      const body = decompressed(up);
      res.writeHead(up.statusCode, {
        ...own,
        ...clientHeaders(up.headers, true),
        ...svc,
        'cache-control': 'no-cache',
        trailer: 'x-svc-rehydrated-count',
      });
      let outcome: NetUsage['outcome'] = 'ok';
      let lastUsage: Json | null = null;
      const relay = new StreamRelay(call.op as Operation, session.map, {
        sse: isSse,
        ndjson,
        crlf: call.provider === 'google' ? '\r\n' : '\n',
        observe: (e) => {
          lastUsage = usageIn(e) ?? lastUsage;
        },
      });
      // What one read of the upstream body gives goes out as one write (one string, one socket write), except
      // that the answer's first event is written, and flushed, before the rest of its read is rewritten: a
      // provider that sends its first events together is not made to wait on the events after them.
      let flushed = false;
      let pending = '';
      const emit = async (text: string) => {
        if (flushed) {
          pending += text;
          return;
        }
        flushed = true;
        const first = pending + text;
        pending = '';
        // Node sends what was written in this turn once the turn's microtasks are done; an immediate runs after.
        if (res.write(first)) await new Promise<void>((resolve) => setImmediate(resolve));
        else await drained(res);
      };
      const send = async () => {
        if (pending === '') return;
        const text = pending;
        pending = '';
        if (!res.write(text)) await drained(res);
      };
      try {
        for await (const chunk of body) {
          if (res.destroyed) throw new Error('client gone');
          for (const piece of relay.push(chunk as Buffer)) await emit(piece);
          await send();
        }
        for (const piece of relay.end()) await emit(piece);
        await send();
      } catch (err) {
        outcome = res.destroyed ? 'aborted' : 'error';
        if (!res.destroyed) {
          // What was rewritten before the failure still goes first, as it did when each event was written at once.
          if (pending !== '') res.write(pending);
          const message = `Parapet network proxy: the ${call.provider} stream failed${(err as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT' ? ' (no data in time)' : ''}.`;
          // Cohere v1's line-delimited stream ends with the error as a line of its own.
          res.write(
            ndjson
              ? `${JSON.stringify(providerErrorBody(call.provider, 502, message))}\n`
              : streamErrorFrame(call.provider, isSse, message, relay.opened),
          );
        }
        if (!body.destroyed) body.destroy();
      }
      if (!res.destroyed) {
        res.addTrailers({ 'x-svc-rehydrated-count': String(relay.restored) });
        res.end();
      }
      note(usageRow(call, outcome === 'ok' ? lastUsage : null, outcome));
      return relay.restored;
    },

    close(): Promise<void> {
      return agent.close();
    },
  };
}

export type NetProxy = ReturnType<typeof createNetProxy>;

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The upstream body without its content coding (asked for identity, but a provider may ignore that). */
function decompressed(
  up: Dispatcher.ResponseData,
): NodeJS.ReadableStream & { destroyed: boolean; destroy(): void } {
  const coding = String(up.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    coding === 'gzip'
      ? createGunzip()
      : coding === 'br'
        ? createBrotliDecompress()
        : coding === 'deflate'
          ? createInflate()
          : null;
  if (!decoder) return up.body;
  up.body.on('error', (err) => decoder.destroy(err));
  return up.body.pipe(decoder);
}

async function readAll(body: AsyncIterable<unknown>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * An Anthropic batch's results (JSONL) restored line by line as they stream (JsonlRehydrator): nothing
 * is held but the line being read. The count of restored tokens is known at the end only, so it goes out
 * as a trailer, as a rehydrated event stream's does; so does `x-svc-rehydration: line_too_long` when a
 * line past the size limit was relayed with its tokens. A failure upstream cuts the connection (JSONL has
 * no in-band error): the client's reader sees a truncated file, never a partial line taken for whole.
 */
async function relayBatchResults(
  session: VaultSession,
  up: Dispatcher.ResponseData,
  res: ServerResponse,
  own: Record<string, string | number | string[]>,
  svc: Record<string, string>,
  limit: number,
): Promise<number> {
  const body = decompressed(up);
  // Ours last, as on every answer: a provider's header of the same name does not replace them.
  res.writeHead(up.statusCode, {
    ...own,
    ...clientHeaders(up.headers, true),
    ...svc,
    'x-svc-vault-session': session.id,
    trailer: 'x-svc-rehydrated-count, x-svc-rehydration',
  });
  const lines = new JsonlRehydrator(session.map, limit);
  try {
    for await (const chunk of body) {
      if (res.destroyed) throw new Error('client gone');
      const out = lines.push(chunk as Buffer);
      if (out.length > 0 && !res.write(out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out)))
        await drained(res);
    }
    const last = lines.end();
    if (last.length > 0) res.write(Buffer.concat(last));
  } catch {
    if (!body.destroyed) body.destroy();
    if (!res.destroyed) res.destroy();
    return lines.restored;
  }
  const trailers: Record<string, string> = { 'x-svc-rehydrated-count': String(lines.restored) };
  if (lines.oversized > 0) trailers['x-svc-rehydration'] = 'line_too_long';
  res.addTrailers(trailers);
  res.end();
  return lines.restored;
}

/** Relays an unchanged answer byte for byte; a stream cut upstream ends with an in-band error, never a hang. */
async function pipeRaw(
  up: Dispatcher.ResponseData,
  res: ServerResponse,
  call: NetCall,
  sse: boolean,
  limit: number,
): Promise<NetUsage['outcome']> {
  // An event stream goes out whole events at a time: the bytes after the last blank line wait for the rest
  // of their event, so a stream cut inside an event ends with the in-band error event alone, which the SDK
  // parses, not with the error glued onto half an event. The holding is bounded (EventCutter).
  const events = sse ? new EventCutter(limit) : null;
  try {
    for await (const chunk of up.body) {
      if (res.destroyed) {
        up.body.destroy();
        return 'aborted';
      }
      const out = events ? events.push(chunk as Buffer) : (chunk as Buffer);
      if (!out) continue;
      if (!res.write(out)) await drained(res);
    }
    res.end(events?.end() ?? undefined);
    return 'ok';
  } catch {
    if (!res.destroyed) {
      // Without a content-length the client sees where the stream stopped; with one, a cut connection.
      if (sse && !res.getHeader('content-length'))
        res.end(
          // After part of an oversized event went out, a blank line ends it first: the error is an event of its own.
          (events?.partial ? '\n\n' : '') +
            streamErrorFrame(
              call.provider,
              true,
              `Parapet network proxy: the ${call.provider} stream failed.`,
            ),
        );
      else res.destroy();
    }
    return 'error';
  }
}

/** Token counts in a provider's answer (or stream event), whichever format it is in. */
function usageIn(body: Json): Json | null {
  const u = (body['usage'] ?? body['usageMetadata'] ?? (body['response'] as Json | undefined)?.['usage']) as
    | Json
    | undefined;
  if (u && typeof u === 'object') return u;
  const delta = body['delta'] as Json | undefined;
  const cohere = delta?.['usage'] as Json | undefined;
  return cohere && typeof cohere === 'object' ? cohere : null;
}

function countsOf(u: Json | null): { prompt: number; completion: number } | null {
  if (!u) return null;
  const tokens = (u['tokens'] ?? u['billed_units']) as Json | undefined;
  const num = (...vs: unknown[]) => vs.find((v): v is number => typeof v === 'number');
  const prompt = num(u['prompt_tokens'], u['input_tokens'], u['promptTokenCount'], tokens?.['input_tokens']);
  const completion = num(
    u['completion_tokens'],
    u['output_tokens'],
    u['candidatesTokenCount'],
    tokens?.['output_tokens'],
  );
  return prompt === undefined && completion === undefined
    ? null
    : { prompt: prompt ?? 0, completion: completion ?? 0 };
}

function usageRow(
  call: NetCall,
  reported: Json | null,
  outcome: NetUsage['outcome'],
): NetUsage & { op: Operation | null } {
  const counts = countsOf(reported ? (usageIn(reported) ?? reported) : null);
  // Estimated from the characters of the prompt's text fields when the provider reported nothing.
  const prompt = counts?.prompt ?? Math.ceil(call.promptChars / 4);
  const completion = counts?.completion ?? 0;
  const model = findModel(`${call.provider}/${call.model}`);
  return {
    op: call.op,
    orgId: call.orgId,
    endpoint: 'proxy',
    provider: call.provider,
    model: model?.key ?? `${call.provider}/${call.model}`,
    promptTokens: prompt,
    completionTokens: completion,
    cost: model ? estimateCost(model, prompt, completion) : 0,
    source: counts ? 'provider' : 'estimated',
    outcome,
  };
}
