import type { TokenMap } from '../../../src/engines/dlp/token-map.js';
import type { SendAnswer } from '../shared/bridge.js';
import { genericSlots, type PromptSlots, promptSlots } from '../shared/prompt-slots.js';
import { type ChatSite, isSendRequest } from '../shared/sites.js';

// The decisions of the MAIN-world hook (hook.ts) that need no page: which requests to look at, how a body
// is read, what is asked, and what leaves. Kept apart from the patching so the unit tests run them in Node
// (which has Request, Blob, FormData and TextDecoder) and the page script stays glue.

export type Transport = 'fetch' | 'xhr' | 'websocket';

/**
 * How the hook sees a site: which requests to look at, and the prompt slots of a body. `slots` returns
 * null for a body it cannot rewrite in place and 'skip' for one that carries no prompt.
 */
export interface Integration {
  watches(method: string, url: URL, transport: Transport): boolean;
  /**
   * Whether a request without a body is checked by its query string (unknown sites: a search page sends the
   * typed text as `?q=…`). The built-in sites send prompts in bodies only.
   */
  watchesQuery?(method: string, url: URL): boolean;
  slots(body: string, contentType: string): { slots: PromptSlots | null; pick: number[] } | 'skip';
}

/** A built-in site at `host` (the page's own host: its send requests go to it). */
export function builtin(site: ChatSite, host: string): Integration {
  return {
    watches: (method, url, transport) =>
      transport === 'websocket'
        ? isSendRequest(site, url)
        : method === 'POST' && url.host === host && isSendRequest(site, url),
    slots(body) {
      const slots = promptSlots(site.id, body);
      return slots ? { slots, pick: slots.texts.map((_, i) => i) } : 'skip';
    },
  };
}

/** What the user typed lately (the last prompts and the values found in them), for the generic mode. */
export class RecentPrompt {
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

export function generic(recent: RecentPrompt, map: TokenMap): Integration {
  const vault = () => [...map.byToken.values()].map((e) => e.value);
  return {
    watches: (method, url, transport) =>
      transport === 'websocket' ||
      (method !== 'GET' && method !== 'HEAD' && /^(https?|wss?):$/.test(url.protocol)),
    watchesQuery: (method, url) =>
      (method === 'GET' || method === 'HEAD') && /^https?:$/.test(url.protocol) && url.search.length > 1,
    slots(body, contentType) {
      const values = vault();
      const slots = genericSlots(body, contentType);
      if (!slots) return recent.carries(body, values) ? { slots: null, pick: [] } : 'skip';
      const pick = slots.texts.flatMap((t, i) => (recent.carries(t, values) ? [i] : []));
      return pick.length > 0 ? { slots, pick } : 'skip';
    },
  };
}

export class BlockedSend extends Error {
  override name = 'ParapetBlocked';
}

/**
 * The body to send instead (the same string when nothing changes); throws BlockedSend to block. `opaque`:
 * the body is binary or a form, read as text only to be checked, so it may leave as it is or not at all.
 */
export type Protect = (
  url: URL,
  body: string,
  transport: Transport,
  contentType?: string,
  opaque?: boolean,
) => Promise<string>;

export type Ask = (
  url: string,
  transport: Transport,
  texts: string[],
  opaque: boolean,
) => Promise<SendAnswer>;

export function makeProtect(integration: Integration, ask: Ask): Protect {
  return async (url, body, transport, contentType = '', opaque = false) => {
    const found = integration.slots(body, contentType);
    if (found === 'skip') return body;
    // A body the hook cannot rewrite in place (multipart, binary) is asked about as a whole: the content
    // script refuses it when it would need tokens, so it never leaves in clear.
    const slots = opaque ? null : found.slots;
    const pick = found.pick;
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
}

/** A binary body or frame (Blob, ArrayBuffer, typed array): it can be checked but never rewritten. */
export function isBinary(body: unknown): body is Blob | ArrayBuffer | ArrayBufferView {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/**
 * The text of a body's bytes, for the check only. `exact` is false when the bytes are not UTF-8: their
 * text then holds U+FFFD and must never be what is sent.
 */
export function decodeBytes(bytes: ArrayBuffer | ArrayBufferView): { text: string; exact: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), exact: true };
  } catch {
    return { text: new TextDecoder().decode(bytes), exact: false };
  }
}

/** The text of a binary body or frame (a Blob is read, so this is async). */
export async function binaryText(body: Blob | ArrayBuffer | ArrayBufferView): Promise<string> {
  return decodeBytes(body instanceof Blob ? await body.arrayBuffer() : body).text;
}

/** What XMLHttpRequest.send gets once `read` came back as `safe`: the page's own body when unchanged. */
export function xhrResendBody<T>(original: T, read: string, safe: string): T | string | URLSearchParams {
  if (safe === read) return original;
  // a URLSearchParams body sets its own Content-Type (form-urlencoded); a plain string would send text/plain
  return original instanceof URLSearchParams ? new URLSearchParams(safe) : safe;
}

/** Fail closed: a refusal or an error reaches the page as a network error; nothing left the browser. */
async function failClosed(safe: Promise<string>): Promise<string> {
  try {
    return await safe;
  } catch (err) {
    throw new TypeError(`Parapet: ${err instanceof Error ? err.message : 'blocked'}`);
  }
}

/**
 * The page's fetch, wrapped: a watched request's body is read and protected; it leaves as the page built
 * it unless its text was rewritten. `send` is the original fetch; `after` sees each response.
 */
export function wrapFetch(
  send: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
  integration: Integration,
  protect: Protect,
  after: (response: Response) => Response = (r) => r,
): typeof fetch {
  return async function parapetFetch(input: RequestInfo | URL, init?: RequestInit) {
    // new Request(input, init) takes the body of a Request input: what passes through needs a copy of its own
    const pass = input instanceof Request && !input.bodyUsed ? input.clone() : input;
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!request.body && integration.watchesQuery?.(request.method, url)) {
      // The query's values are slots like a form body's: tokens in place of the typed values, or no request.
      const query = url.search.slice(1);
      const safe = await failClosed(protect(url, query, 'fetch', 'application/x-www-form-urlencoded'));
      if (safe === query) return after(await send(pass, init));
      const next = new URL(url);
      next.search = safe;
      return after(await send(new Request(next, request)));
    }
    // A stream cannot be read without being taken from the page; it goes as it is.
    if (
      !request.body ||
      init?.body instanceof ReadableStream ||
      !integration.watches(request.method, url, 'fetch')
    )
      return send(pass, init);
    let body: { text: string; exact: boolean };
    try {
      body = decodeBytes(await request.clone().arrayBuffer());
    } catch {
      throw new TypeError('Parapet: the request body could not be read; not sent.');
    }
    const type = request.headers.get('content-type') ?? '';
    // Binary, form and non-UTF-8 bodies are checked as text but can only leave as their own bytes.
    const raw = init?.body;
    const opaque = !body.exact || isBinary(raw) || raw instanceof FormData || type.includes('multipart/');
    const safe = await failClosed(protect(url, body.text, 'fetch', type, opaque));
    // Unchanged (no prompt, allowed, nothing to tokenize): the page's own request, its bytes untouched.
    if (safe === body.text) return after(await send(pass, init));
    return after(await send(new Request(request, { body: safe })));
  } as typeof fetch;
}
