import { createTokenMap, type TokenMap } from '../../../src/engines/dlp/token-map.js';
import { type FromPage, HANDSHAKE, type SendAnswer, type ToPage } from '../shared/bridge.js';
import { genericSlots, type PromptSlots, promptSlots } from '../shared/prompt-slots.js';
import { SseRehydrator } from '../shared/sse-rehydrate.js';
import { builtinSiteAt, type ChatSite, isSendRequest } from '../shared/sites.js';

// MAIN world, document_start: wraps the page's fetch, XMLHttpRequest and WebSocket before the site's
// scripts can keep a reference to the originals. The prompt of a send request is handed to the content
// script, which answers with tokenized text or a refusal; the page's own request then leaves with the
// tokens (its headers, sentinel and proof-of-work tokens untouched). Any failure blocks the send.

// Long enough for a user to answer a warn-before-submit prompt in the bar.
const ANSWER_TIMEOUT_MS = 60_000;

// On the built-in sites the hook knows which requests carry the prompt. Elsewhere (the config's other AI
// sites, where the background registers this script at run time) it is generic: any request whose text
// carries what the user typed in the prompt box (told by the content script as they type) or a value
// already tokenized on this site is asked about, and only its strings that carry it are tokenized.
// (Installed at the end of this file, once its classes are defined.)

type Transport = 'fetch' | 'xhr' | 'websocket';

/**
 * How the hook sees a site: which requests to look at, and the prompt slots of a body. `slots` returns
 * null for a body it cannot rewrite in place and 'skip' for one that carries no prompt.
 */
interface Integration {
  watches(method: string, url: URL, transport: Transport): boolean;
  slots(body: string, contentType: string): { slots: PromptSlots | null; pick: number[] } | 'skip';
}

function builtin(site: ChatSite): Integration {
  return {
    watches: (method, url, transport) =>
      transport === 'websocket'
        ? isSendRequest(site, url)
        : method === 'POST' && url.host === location.host && isSendRequest(site, url),
    slots(body) {
      const slots = promptSlots(site.id, body);
      return slots ? { slots, pick: slots.texts.map((_, i) => i) } : 'skip';
    },
  };
}

/** What the user typed lately (the last prompts and the values found in them), for the generic mode. */
class RecentPrompt {
  private texts: string[] = [];
  private values = new Set<string>();

  note(text: string, values: readonly string[]): void {
    const t = text.trim();
    if (t.length > 0 && this.texts[0] !== t)
      this.texts = [t, ...this.texts.filter((x) => x !== t)].slice(0, 3);
    for (const v of values) if (v.length >= 3) this.values.add(v);
    if (this.values.size > 2000) this.values = new Set([...this.values].slice(-1000));
  }

  /** The probes: each line of the recent prompts (their start, 64 characters) and the values found. */
  carries(text: string, vault: Iterable<string>): boolean {
    for (const v of this.values) if (text.includes(v)) return true;
    for (const v of vault) if (v.length >= 3 && text.includes(v)) return true;
    for (const p of this.texts)
      for (const line of p.split(/\n/)) {
        // a line of one to three characters would match nearly any body: only a prompt that short probes so
        const probe = line.trim().slice(0, 64);
        if (probe.length >= Math.min(4, p.length) && probe.length > 0 && text.includes(probe)) return true;
      }
    return false;
  }
}

function generic(recent: RecentPrompt, map: TokenMap): Integration {
  const vault = () => [...map.byToken.values()].map((e) => e.value);
  return {
    watches: (method, url, transport) =>
      transport === 'websocket' ||
      (method !== 'GET' && method !== 'HEAD' && /^(https?|wss?):$/.test(url.protocol)),
    slots(body, contentType) {
      const values = vault();
      const slots = genericSlots(body, contentType);
      if (!slots) return recent.carries(body, values) ? { slots: null, pick: [] } : 'skip';
      const pick = slots.texts.flatMap((t, i) => (recent.carries(t, values) ? [i] : []));
      return pick.length > 0 ? { slots, pick } : 'skip';
    },
  };
}

function install(site: ChatSite | null): void {
  const channel = new MessageChannel();
  const port = channel.port1;
  window.postMessage({ type: HANDSHAKE }, location.origin, [channel.port2]);

  const map: TokenMap = createTokenMap();
  const recent = new RecentPrompt();
  const integration = site ? builtin(site) : generic(recent, map);
  const waiting = new Map<number, (a: SendAnswer) => void>();
  let nextId = 1;

  port.onmessage = (e: MessageEvent<ToPage>) => {
    const msg = e.data;
    if (msg.op === 'vault') {
      for (const en of msg.entries) {
        map.byToken.set(en.token, { type: en.type, value: en.value });
      }
    } else if (msg.op === 'prompt') {
      recent.note(msg.text, msg.values);
    } else if (msg.op === 'answer') {
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  };
  port.start();
  const post = (m: FromPage) => port.postMessage(m);

  function ask(url: string, transport: Transport, texts: string[], opaque: boolean): Promise<SendAnswer> {
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve({ op: 'answer', id, action: 'block', reason: 'The protection did not answer in time.' });
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
      post({ op: 'send', id, url, transport, texts, ...(opaque ? { opaque } : {}) });
    });
  }

  /** The body to send instead (the same one when the request is not a prompt); throws to block. */
  const protect: Protect = async (url, body, transport, contentType = '') => {
    const found = integration.slots(body, contentType);
    if (found === 'skip') return body;
    const { slots, pick } = found;
    // A body the hook cannot rewrite in place (multipart, binary) is asked about as a whole: the content
    // script refuses it when it would need tokens, so it never leaves in clear.
    const texts = slots ? pick.map((i) => slots.texts[i]!) : [body];
    const answer = await ask(url.href, transport, texts, slots === null);
    if (answer.action === 'block') throw new BlockedSend(answer.reason ?? 'Blocked by Parapet.');
    if (answer.action === 'allow') return body;
    if (!slots || !answer.texts || answer.texts.length !== texts.length)
      throw new BlockedSend('Tokenization failed.');
    const replacements = [...slots.texts];
    pick.forEach((slot, i) => {
      replacements[slot] = answer.texts![i]!;
    });
    return slots.rebuild(replacements);
  };

  patchFetch(integration, protect, map, post);
  patchXhr(integration, protect);
  patchWebSocket(integration, protect);
}

class BlockedSend extends Error {
  override name = 'ParapetBlocked';
}

type Protect = (url: URL, body: string, transport: Transport, contentType?: string) => Promise<string>;

function patchFetch(
  integration: Integration,
  protect: Protect,
  map: TokenMap,
  post: (m: FromPage) => void,
): void {
  const original = window.fetch;
  window.fetch = async function parapetFetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const raw = init?.body;
    // Files and binary bodies go as they are (a file is checked when the user chooses it).
    const binary =
      raw instanceof Blob ||
      raw instanceof ArrayBuffer ||
      ArrayBuffer.isView(raw) ||
      raw instanceof ReadableStream;
    if (!request.body || binary || !integration.watches(request.method, url, 'fetch')) {
      return original.call(window, input, init);
    }
    let body: string;
    try {
      body = await request.clone().text();
    } catch {
      throw new TypeError('Parapet: the request body could not be read; not sent.');
    }
    let safeBody: string;
    try {
      safeBody = await protect(url, body, 'fetch', request.headers.get('content-type') ?? '');
    } catch (err) {
      // Fail closed: the page sees a network error, nothing left the browser.
      throw new TypeError(`Parapet: ${err instanceof Error ? err.message : 'blocked'}`);
    }
    const response = await original.call(window, new Request(request, { body: safeBody }));
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.includes('text/event-stream') || map.byToken.size === 0) return response;
    return rehydratedResponse(response, map, post);
  } as typeof fetch;
}

function rehydratedResponse(response: Response, map: TokenMap, post: (m: FromPage) => void): Response {
  const sse = new SseRehydrator(map);
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const body = response.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const out = sse.push(decoder.decode(chunk, { stream: true }));
        if (out.length > 0) controller.enqueue(encoder.encode(out));
      },
      flush(controller) {
        const out = sse.push(decoder.decode()) + sse.flush();
        if (out.length > 0) controller.enqueue(encoder.encode(out));
        post({ op: 'stream', restored: sse.restored });
      },
    }),
  );
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(wrapped, 'url', { value: response.url });
  return wrapped;
}

function patchXhr(integration: Integration, protect: Protect): void {
  const proto = XMLHttpRequest.prototype;
  const open = proto.open;
  const send = proto.send;
  const setHeader = proto.setRequestHeader;
  const target = new WeakMap<XMLHttpRequest, { method: string; url: URL; type: string }>();
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    target.set(this, { method: method.toUpperCase(), url: new URL(String(url), location.href), type: '' });
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof proto.open;
  proto.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
    const t = target.get(this);
    if (t && name.toLowerCase() === 'content-type') t.type = value;
    return setHeader.call(this, name, value);
  };
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const t = target.get(this);
    if (!t || body === null || body === undefined || !integration.watches(t.method, t.url, 'xhr')) {
      return send.call(this, body);
    }
    let text: string | null = null;
    let type = t.type;
    if (typeof body === 'string') text = body;
    else if (body instanceof URLSearchParams) {
      text = body.toString();
      type ||= 'application/x-www-form-urlencoded';
    } else if (body instanceof FormData) {
      // Its text fields, read as one opaque body: refused if it carries a prompt that needs tokens.
      text = [...body.values()].filter((v): v is string => typeof v === 'string').join('\n');
      type = 'multipart/form-data';
    }
    // Files and binary bodies go as they are (files are checked when chosen); so does a body with no prompt.
    if (text === null || integration.slots(text, type) === 'skip') return send.call(this, body);
    const original = body;
    protect(t.url, text, 'xhr', type).then(
      (safe) => send.call(this, safe === text ? original : safe),
      () => {
        // Blocked: the request never opens a connection; the page gets the error path it already handles.
        this.abort();
        this.dispatchEvent(new ProgressEvent('error'));
      },
    );
  };
}

function patchWebSocket(integration: Integration, protect: Protect): void {
  const proto = WebSocket.prototype;
  const send = proto.send;
  const queues = new WeakMap<WebSocket, { tail: Promise<void>; pending: number }>();
  proto.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    const url = new URL(this.url);
    const q = queues.get(this);
    if (typeof data !== 'string' || !integration.watches('POST', url, 'websocket'))
      return send.call(this, data);
    // A frame with no prompt goes at once, unless frames before it still wait (frames keep their order).
    if (!q?.pending && integration.slots(data, '') === 'skip') return send.call(this, data);
    const queue = q ?? { tail: Promise.resolve(), pending: 0 };
    queue.pending++;
    queue.tail = queue.tail
      .then(() =>
        protect(url, data, 'websocket').then(
          (safe) => send.call(this, safe),
          () => undefined, // blocked: the frame is dropped, never sent in clear
        ),
      )
      .finally(() => {
        queue.pending--;
      });
    queues.set(this, queue);
  };
}

install(builtinSiteAt(location.hostname) ?? null);
