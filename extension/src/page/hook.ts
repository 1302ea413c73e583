import { createTokenMap, type TokenMap } from '../../../src/engines/dlp/token-map.js';
import { type FromPage, HANDSHAKE, type SendAnswer, type ToPage } from '../shared/bridge.js';
import { promptSlots } from '../shared/prompt-slots.js';
import { SseRehydrator } from '../shared/sse-rehydrate.js';
import { type ChatSite, isSendRequest, siteForHost } from '../shared/sites.js';

// MAIN world, document_start: wraps the page's fetch, XMLHttpRequest and WebSocket before the site's
// scripts can keep a reference to the originals. The prompt of a send request is handed to the content
// script, which answers with tokenized text or a refusal; the page's own request then leaves with the
// tokens (its headers, sentinel and proof-of-work tokens untouched). Any failure blocks the send.

// Long enough for a user to answer a warn-before-submit prompt in the bar.
const ANSWER_TIMEOUT_MS = 60_000;

const site = siteForHost(location.hostname);
if (site) install(site);

function install(site: ChatSite): void {
  const channel = new MessageChannel();
  const port = channel.port1;
  window.postMessage({ type: HANDSHAKE }, location.origin, [channel.port2]);

  const map: TokenMap = createTokenMap();
  const waiting = new Map<number, (a: SendAnswer) => void>();
  let nextId = 1;

  port.onmessage = (e: MessageEvent<ToPage>) => {
    const msg = e.data;
    if (msg.op === 'vault') {
      for (const en of msg.entries) {
        map.byToken.set(en.token, { type: en.type, value: en.value });
      }
    } else if (msg.op === 'answer') {
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  };
  port.start();
  const post = (m: FromPage) => port.postMessage(m);

  function ask(url: string, transport: 'fetch' | 'xhr' | 'websocket', texts: string[]): Promise<SendAnswer> {
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
      post({ op: 'send', id, url, transport, texts });
    });
  }

  /** The body to send instead, or null when the request is not a prompt; throws to block. */
  async function protect(url: URL, body: string, transport: 'fetch' | 'xhr' | 'websocket'): Promise<string> {
    const slots = promptSlots(site.id, body);
    if (!slots) return body;
    const answer = await ask(url.href, transport, slots.texts);
    if (answer.action === 'block') throw new BlockedSend(answer.reason ?? 'Blocked by Parapet.');
    if (answer.action === 'allow') return body;
    const texts = answer.texts;
    if (!texts || texts.length !== slots.texts.length) throw new BlockedSend('Tokenization failed.');
    return slots.rebuild(texts);
  }

  patchFetch(site, protect, map, post);
  patchXhr(site, protect);
  patchWebSocket(site, protect);
}

class BlockedSend extends Error {
  override name = 'ParapetBlocked';
}

type Protect = (url: URL, body: string, transport: 'fetch' | 'xhr' | 'websocket') => Promise<string>;

function patchFetch(site: ChatSite, protect: Protect, map: TokenMap, post: (m: FromPage) => void): void {
  const original = window.fetch;
  window.fetch = async function parapetFetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.host !== location.host || !isSendRequest(site, url)) {
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
      safeBody = await protect(url, body, 'fetch');
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

function patchXhr(site: ChatSite, protect: Protect): void {
  const proto = XMLHttpRequest.prototype;
  const open = proto.open;
  const send = proto.send;
  const target = new WeakMap<XMLHttpRequest, { method: string; url: URL }>();
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    target.set(this, { method: method.toUpperCase(), url: new URL(String(url), location.href) });
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof proto.open;
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const t = target.get(this);
    if (t?.method !== 'POST' || t.url.host !== location.host || !isSendRequest(site, t.url)) {
      return send.call(this, body);
    }
    const text = typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : null;
    if (text === null) {
      send.call(this, body);
      return;
    }
    protect(t.url, text, 'xhr').then(
      (safe) => send.call(this, safe),
      () => {
        // Blocked: the request never opens a connection; the page gets the error path it already handles.
        this.abort();
        this.dispatchEvent(new ProgressEvent('error'));
      },
    );
  };
}

function patchWebSocket(site: ChatSite, protect: Protect): void {
  const proto = WebSocket.prototype;
  const send = proto.send;
  const queues = new WeakMap<WebSocket, Promise<void>>();
  proto.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    const url = new URL(this.url);
    if (typeof data !== 'string' || !isSendRequest(site, url)) return send.call(this, data);
    // Frames keep their order: each waits for the one before it.
    const prev = queues.get(this) ?? Promise.resolve();
    const next = prev.then(() =>
      protect(url, data, 'websocket').then(
        (safe) => send.call(this, safe),
        () => undefined, // blocked: the frame is dropped, never sent in clear
      ),
    );
    queues.set(this, next);
  };
}
