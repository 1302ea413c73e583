// Where the user's words sit in each site's request body, so that only they are tokenized (never ids,
// model names or settings) and the rest of the body is sent byte for byte when nothing changed.

/** Keys whose string values are text the user wrote (or earlier turns of it) in the sites' JSON bodies. */
const TEXT_KEYS = new Set([
  'prompt',
  'parts',
  'text',
  'content',
  'query',
  'query_str',
  // Perplexity repeats the question in params.dsl_query: leaving it out would send it in clear
  'dsl_query',
  'message',
  'input',
  'messageInput',
  'q',
]);

export interface PromptSlots {
  texts: string[];
  /** the body with each text replaced by the replacement at the same index */
  rebuild(replacements: readonly string[]): string;
}

type Ref = { parent: Record<string, unknown> | unknown[]; key: string | number };

function collect(node: unknown, underTextKey: boolean, refs: Ref[], depth: number): void {
  if (depth > 64 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((v, i) => {
      if (typeof v === 'string' && underTextKey) refs.push({ parent: node, key: i });
      else collect(v, underTextKey, refs, depth + 1);
    });
    return;
  }
  const obj = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    const textKey = TEXT_KEYS.has(k);
    if (typeof v === 'string') {
      if (textKey && v.length > 0) refs.push({ parent: obj, key: k });
    } else collect(v, textKey, refs, depth + 1);
  }
}

function jsonSlots(body: string): PromptSlots | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const refs: Ref[] = [];
  collect(parsed, false, refs, 0);
  if (refs.length === 0) return null;
  return slotsOf(refs, body, () => JSON.stringify(parsed));
}

// Gemini posts form fields; `f.req` is JSON whose second element is JSON again, the prompt first in it.
function geminiSlots(body: string): PromptSlots | null {
  const form = new URLSearchParams(body);
  const freq = form.get('f.req');
  if (freq === null) return null;
  let outer: unknown;
  let inner: unknown;
  try {
    outer = JSON.parse(freq);
    if (!Array.isArray(outer) || typeof outer[1] !== 'string') return null;
    inner = JSON.parse(outer[1]);
  } catch {
    return null;
  }
  if (!Array.isArray(inner) || !Array.isArray(inner[0]) || typeof inner[0][0] !== 'string') return null;
  const first = inner[0] as unknown[];
  const text = first[0] as string;
  return {
    texts: [text],
    rebuild([replacement]) {
      if (replacement === text) return body;
      const o = outer as unknown[];
      const innerText = o[1];
      first[0] = replacement;
      o[1] = JSON.stringify(inner);
      const copy = new URLSearchParams(body);
      copy.set('f.req', JSON.stringify(o));
      first[0] = text;
      o[1] = innerText;
      return copy.toString();
    },
  };
}

export function promptSlots(siteId: string, body: string): PromptSlots | null {
  if (siteId === 'gemini') return geminiSlots(body);
  return jsonSlots(body);
}

// ---- sites without a known request format (the config's AI sites beyond the built-in ones) ----

/** Every string value of a JSON document, at any key: an unknown site may put the prompt anywhere. */
function allStrings(node: unknown, refs: Ref[], depth: number): void {
  if (depth > 64 || node === null || typeof node !== 'object') return;
  const entries: Array<[string | number, unknown]> = Array.isArray(node)
    ? node.map((v, i) => [i, v])
    : Object.entries(node as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (typeof v === 'string') {
      if (v.length > 0) refs.push({ parent: node as Ref['parent'], key: k });
    } else allStrings(v, refs, depth + 1);
  }
}

function slotsOf(refs: Ref[], body: string, serialize: () => string): PromptSlots {
  const read = (r: Ref) => (r.parent as Record<string | number, unknown>)[r.key] as string;
  const texts = refs.map(read);
  return {
    texts,
    rebuild(replacements) {
      if (replacements.every((t, i) => t === texts[i])) return body;
      refs.forEach((r, i) => {
        (r.parent as Record<string | number, unknown>)[r.key] = replacements[i];
      });
      const out = serialize();
      refs.forEach((r, i) => {
        (r.parent as Record<string | number, unknown>)[r.key] = texts[i];
      });
      return out;
    },
  };
}

/**
 * The text slots of a request body of an unknown site: every string of a JSON body, every value of a form
 * body, the whole of any other text body. Null when the body is not text the hook can rewrite in place
 * (multipart, binary): the caller must then refuse to send a prompt that needs tokens.
 */
export function genericSlots(body: string, contentType: string): PromptSlots | null {
  const type = contentType.toLowerCase();
  if (type.includes('multipart/') || body.includes('\uFFFD')) return null;
  const trimmed = body.trimStart();
  if (type.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(body);
      const refs: Ref[] = [];
      allStrings(parsed, refs, 0);
      return slotsOf(refs, body, () => JSON.stringify(parsed));
    } catch {
      // not JSON after all: read as plain text below
    }
  }
  if (type.includes('application/x-www-form-urlencoded')) {
    const form = [...new URLSearchParams(body)];
    const texts = form.map(([, v]) => v);
    return {
      texts,
      rebuild(replacements) {
        if (replacements.every((t, i) => t === texts[i])) return body;
        return new URLSearchParams(
          form.map(([k], i): [string, string] => [k, replacements[i] ?? '']),
        ).toString();
      },
    };
  }
  return { texts: [body], rebuild: ([replacement]) => replacement ?? body };
}
