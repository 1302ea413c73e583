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
  type NetProvider,
  type Operation,
  requestTexts,
  routeOf,
  unreadableShape,
} from './formats.js';
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
  /** Largest request body once decompressed (the server's body limit applies to what arrives). */
  bodyLimit: number;
  /** No byte from the provider for this long (headers or between chunks) ends the call. */
  idleTimeoutMs?: number;
  /** How provider host names are resolved (transparent mode: its own resolver, never through itself). */
  lookup?: LookupFunction;
}

export interface NetCall {
  provider: NetProvider;
  op: Operation | null;
  url: string;
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
}

type Incoming = Record<string, string | string[] | undefined>;
type Json = Record<string, unknown>;

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

const ODD_PATH = /[%\\]|\/\.|\/\/|\/$/;

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
  let canonical = path;
  try {
    canonical = decodeURIComponent(new URL(path, 'http://path.invalid').pathname);
  } catch {
    // a malformed escape matches nothing the provider would read either; judged as written
  }
  canonical = canonical.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  if (!routeOf(provider, 'POST', canonical)) return;
  if (method !== 'POST' && !hasBody) return;
  throw new AppError(
    'invalid_request',
    `The network proxy inspects POST ${canonical} only as the provider's SDK sends it (POST, no percent-escapes, dot segments, backslashes or trailing slash); this ${method} would reach it uninspected, so it was not sent.`,
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
  const roots = new Map<NetProvider, string>();
  // Model calls are usage; a models list or a file upload forwarded as it is is not.
  const note = (row: NetUsage & { op: Operation | null }) => {
    if (row.op) deps.recordUsage(row);
  };

  function rootOf(provider: NetProvider): string {
    let root = roots.get(provider);
    if (root === undefined) {
      const base = (deps.baseUrls[provider] ?? DEFAULT_BASE_URLS[provider] ?? '').replace(/\/+$/, '');
      const prefix = PATH_PREFIX[provider];
      root = prefix && base.endsWith(prefix) ? base.slice(0, -prefix.length) : base;
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
      const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
      const query = q === -1 ? '' : pathAndQuery.slice(q);
      refuseServiceSecrets(headers, query);
      const route = routeOf(provider, method, path);
      const call: NetCall = {
        provider,
        op: route?.op ?? null,
        url: rootOf(provider) + pathAndQuery,
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
      if (!route) {
        refuseDisguised(provider, method, path, call.body !== undefined);
        call.headers = upstreamHeaders(headers, false, false);
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
      call.model = texts.model || /\/models\/([^/:]+):/.exec(path)?.[1] || '';
      for (const f of texts.fields) call.promptChars += f.text.length;
      if (texts.userText) {
        // The event's endpoint names the provider (a checked id, so the path stays short and known):
        // a SIEM reader sees which service the attack was aimed at.
        const analysis = await deps.protection.checkInjection(
          caller,
          texts.userText,
          NETPROXY_PATH.replace(':provider', provider),
        );
        if (analysis.action === 'block') {
          throw new AppError(
            'forbidden',
            'The request was blocked by Parapet: it looks like a prompt injection or jailbreak attempt.',
          );
        }
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
      call.headers = upstreamHeaders(headers, changed, call.session !== null);
      // The body was read as UTF-8 JSON, and is declared as what was inspected even when it goes up as its
      // own bytes: a provider that honoured another declared charset (UTF-7 reads `+AEA-` as "@") would
      // read a text that was never inspected.
      call.headers['content-type'] = 'application/json';
      return call;
    },

    /** Opens the upstream call; resolves with its status and headers, the body still to read. */
    send(call: NetCall, signal: CancelSignal): Promise<Dispatcher.ResponseData> {
      const url = new URL(call.url);
      return agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
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
      const type = String(up.headers['content-type'] ?? '');
      const isSse = type.includes('text/event-stream');
      const isStream = isSse || (call.op === 'gemini-generate' && call.stream && up.statusCode < 300);
      const session = call.session;

      if (!session) {
        res.writeHead(up.statusCode, {
          ...own,
          ...clientHeaders(up.headers, false),
          ...svc,
          'x-svc-rehydrated-count': '0',
          ...(up.headers['content-length'] ? { 'content-length': String(up.headers['content-length']) } : {}),
        });
        const outcome = await pipeRaw(up, res, call, isSse);
        note(usageRow(call, null, outcome));
        return 0;
      }

      const body = decompressed(up);
      if (!isStream) {
        // undici's own reader when the body needs no decoding: no async iteration per chunk.
        const text = body === up.body ? await up.body.text() : await readAll(body);
        let out = text;
        let restored = 0;
        let reported: Json | null = null;
        try {
          const parsed = JSON.parse(text) as unknown;
          restored = rehydrateJson(parsed, session.map);
          reported = parsed as Json;
          // An answer in which no token was restored goes out as it came (not serialized again).
          if (restored > 0) out = JSON.stringify(parsed);
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
          res.write(streamErrorFrame(call.provider, isSse, message));
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

/** Relays an unchanged answer byte for byte; a stream cut upstream ends with an in-band error, never a hang. */
async function pipeRaw(
  up: Dispatcher.ResponseData,
  res: ServerResponse,
  call: NetCall,
  sse: boolean,
): Promise<NetUsage['outcome']> {
  try {
    for await (const chunk of up.body) {
      if (res.destroyed) {
        up.body.destroy();
        return 'aborted';
      }
      if (!res.write(chunk as Buffer)) await drained(res);
    }
    res.end();
    return 'ok';
  } catch {
    if (!res.destroyed) {
      // Without a content-length the client sees where the stream stopped; with one, a cut connection.
      if (sse && !res.getHeader('content-length'))
        res.end(
          streamErrorFrame(call.provider, true, `Parapet network proxy: the ${call.provider} stream failed.`),
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
