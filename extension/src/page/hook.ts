import { createTokenMap, type TokenMap } from '../../../src/engines/dlp/token-map.js';
import { type FromPage, HANDSHAKE, type SendAnswer, type ToPage } from '../shared/bridge.js';
import { SseRehydrator } from '../shared/sse-rehydrate.js';
import { builtinSiteAt, type ChatSite } from '../shared/sites.js';
import {
  binaryText,
  builtin,
  decodeBytes,
  generic,
  isBinary,
  type Integration,
  makeProtect,
  type Protect,
  RecentPrompt,
  type Transport,
  wrapFetch,
  xhrResendBody,
} from './hook-core.js';

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
// The decisions live in hook-core.ts; this file patches the page's globals with them.

function install(site: ChatSite | null): void {
  const channel = new MessageChannel();
  const port = channel.port1;
  window.postMessage({ type: HANDSHAKE }, location.origin, [channel.port2]);

  const map: TokenMap = createTokenMap();
  const recent = new RecentPrompt();
  const integration = site ? builtin(site, location.host) : generic(recent, map);
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

  const protect = makeProtect(integration, ask);

  patchFetch(integration, protect, map, post);
  patchXhr(integration, protect);
  patchWebSocket(integration, protect);
}

function patchFetch(
  integration: Integration,
  protect: Protect,
  map: TokenMap,
  post: (m: FromPage) => void,
): void {
  const original = window.fetch;
  window.fetch = wrapFetch(
    (input, init) => original.call(window, input, init),
    integration,
    protect,
    (response) => {
      const type = response.headers.get('content-type') ?? '';
      if (!response.body || !type.includes('text/event-stream') || map.byToken.size === 0) return response;
      return rehydratedResponse(response, map, post);
    },
  );
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
    const blocked = () => {
      // Blocked: the request never opens a connection; the page gets the error path it already handles.
      this.abort();
      this.dispatchEvent(new ProgressEvent('error'));
    };
    if (t && (body === null || body === undefined) && integration.watchesQuery?.(t.method, t.url)) {
      // An opened XHR's URL cannot be changed: a query carrying a prompt leaves as it is or not at all.
      const query = t.url.search.slice(1);
      if (integration.slots(query, 'application/x-www-form-urlencoded') === 'skip')
        return send.call(this, body);
      protect(t.url, query, 'xhr', 'application/x-www-form-urlencoded', true).then(
        () => send.call(this, body),
        blocked,
      );
      return;
    }
    if (!t || body === null || body === undefined || !integration.watches(t.method, t.url, 'xhr')) {
      return send.call(this, body);
    }
    if (isBinary(body)) {
      // Checked as text, sent as its own bytes or not at all (a Blob is read first, so this waits).
      if (!(body instanceof Blob) && integration.slots(decodeBytes(body).text, t.type) === 'skip')
        return send.call(this, body);
      binaryText(body)
        .then((text) => protect(t.url, text, 'xhr', t.type, true))
        .then(() => send.call(this, body), blocked);
      return;
    }
    let text: string | null = null;
    let type = t.type;
    let opaque = false;
    if (typeof body === 'string') text = body;
    else if (body instanceof URLSearchParams) {
      text = body.toString();
      type ||= 'application/x-www-form-urlencoded';
    } else if (body instanceof FormData) {
      // Its text fields, read as one opaque body: refused if it carries a prompt that needs tokens.
      text = [...body.values()].filter((v): v is string => typeof v === 'string').join('\n');
      type = 'multipart/form-data';
      opaque = true;
    }
    // A document goes as it is; so does a body with no prompt.
    if (text === null || integration.slots(text, type) === 'skip') return send.call(this, body);
    const read = text;
    protect(t.url, read, 'xhr', type, opaque).then(
      (safe) => send.call(this, xhrResendBody(body, read, safe)),
      blocked,
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
    if (!integration.watches('POST', url, 'websocket')) return send.call(this, data);
    const binary = typeof data !== 'string';
    // A frame with no prompt goes at once, unless frames before it still wait (frames keep their order).
    // A Blob frame is read first, so it always waits its turn in the queue.
    if (!q?.pending && !(data instanceof Blob)) {
      const text = typeof data === 'string' ? data : decodeBytes(data as ArrayBuffer | ArrayBufferView).text;
      if (integration.slots(text, '') === 'skip') return send.call(this, data);
    }
    const queue = q ?? { tail: Promise.resolve(), pending: 0 };
    queue.pending++;
    queue.tail = queue.tail
      .then(async () => {
        const text =
          typeof data === 'string' ? data : await binaryText(data as Blob | ArrayBuffer | ArrayBufferView);
        // a binary frame is checked as text but leaves as its own bytes or not at all
        const safe = await protect(url, text, 'websocket', '', binary);
        send.call(this, binary ? data : safe);
      })
      .catch(() => undefined) // blocked: the frame is dropped, never sent in clear
      .finally(() => {
        queue.pending--;
      });
    queues.set(this, queue);
  };
}

install(builtinSiteAt(location.hostname) ?? null);
