import {
  DeltaFields,
  type DeltaFormat,
  endsOf,
  type Released,
  rehydrate,
  type TokenMap,
} from '../../engines/dlp/index.js';
import { copyWithOnly, getAt } from '../../engines/dlp/json-path.js';

// Reasoning the provider signs is sent back verbatim in the next turn: left as it came, tokens included.
const SKIP_KEYS = new Set(['thinking', 'signature', 'thoughtSignature', 'encrypted_content']);
// `data` as a string is opaque bytes (Gemini `inlineData`, an Anthropic base64 source, redacted thinking);
// as a list or an object it is content: OpenAI's list answers (`{object: 'list', data: [...]}`, the items
// of a conversation) hold their items there, and were relayed with every token in them unrestored.
const OPAQUE_STRING_KEYS = new Set(['data']);
const SKIP_TYPES = new Set(['thinking', 'redacted_thinking', 'reasoning']);
const MAYBE_TOKEN = /tkn/i;

type Json = Record<string, unknown>;
type Skip = WeakMap<object, Set<string>>;

function restoreString(s: string, map: TokenMap, json: boolean, count: { n: number }): string {
  if (!MAYBE_TOKEN.test(s)) return s;
  const out = rehydrate(s, map, { json });
  count.n += out.restored;
  return out.text;
}

function walk(value: unknown, map: TokenMap, count: { n: number }, skip: Skip | undefined): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v === 'string') value[i] = restoreString(v, map, false, count);
      else if (v && typeof v === 'object') walk(v, map, count, skip);
    }
    return;
  }
  const obj = value as Json;
  if (SKIP_TYPES.has(obj['type'] as string) || obj['thought'] === true) return;
  const skipped = skip?.get(obj);
  let tokenKey = false;
  for (const key of Object.keys(obj)) {
    // A key of a free-form map that was tokenized (metadata, which the Responses API echoes).
    if (MAYBE_TOKEN.test(key)) tokenKey = true;
    if (SKIP_KEYS.has(key) || skipped?.has(key)) continue;
    const v = obj[key];
    if (typeof v === 'string' && OPAQUE_STRING_KEYS.has(key)) continue;
    // Tool-call arguments are JSON text inside a string: a restored value is escaped for that JSON too.
    if (typeof v === 'string') obj[key] = restoreString(v, map, key === 'arguments', count);
    else if (v && typeof v === 'object') walk(v, map, count, skip);
  }
  if (tokenKey) restoreKeys(obj, map, count);
}

/** Restores the tokens in an object's keys, keeping their order (rare: only objects with such a key). */
function restoreKeys(obj: Json, map: TokenMap, count: { n: number }): void {
  const entries = Object.entries(obj);
  const restored = entries.map(([key]) => {
    const one = { n: 0 };
    return { name: restoreString(key, map, false, one), n: one.n };
  });
  if (!restored.some((r) => r.n > 0)) return;
  // A restored name that another key already has (the model wrote the value in clear beside its token,
  // or two tokens of one value) keeps its token: overwriting would drop one of the two values.
  const taken = new Set(entries.filter((_, i) => restored[i]?.n === 0).map(([key]) => key));
  const names = entries.map(([key], i) => {
    const r = restored[i] as { name: string; n: number };
    if (r.n === 0) return key;
    if (taken.has(r.name)) return key;
    taken.add(r.name);
    count.n += r.n;
    return r.name;
  });
  for (const [key] of entries) delete obj[key];
  // Defined, not assigned: a restored key is the caller's data and never reaches a prototype setter.
  entries.forEach(([, value], i) => {
    Object.defineProperty(obj, names[i] as string, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
}

/**
 * Restores tokens in every string of a parsed JSON body in place, whatever the provider's format: message
 * text, tool-call arguments (kept valid JSON), tool inputs, refusals. Signed reasoning is left alone.
 * Returns the number of tokens restored.
 */
export function rehydrateJson(value: unknown, map: TokenMap, skip?: Skip): number {
  const count = { n: 0 };
  if (value && typeof value === 'object') walk(value, map, count, skip);
  return count.n;
}

/**
 * Restores tokens in a stream of JSON events in a native format. Each delta field is held by the DLP
 * engine's DeltaFields (one streaming rehydrator per field, shared with the browser extension), so a token
 * split across events is restored whole and never released in part. Held-back text is released when the
 * field's block ends (DeltaFormat.ends): into the closing event when it carries the same field, else as a
 * copy of the field's last delta event placed before it. Every other string of an event is restored whole.
 */
export class DeltaRehydrator {
  private readonly fields: DeltaFields;
  /** tokens restored outside the delta fields */
  private done = 0;

  constructor(
    private readonly map: TokenMap,
    private readonly format: DeltaFormat,
  ) {
    this.fields = new DeltaFields(map);
  }

  get restored(): number {
    return this.done + this.fields.restored;
  }

  /** The events to send in place of `event`, in order (empty deltas are kept: they may carry ids). */
  event(event: Json): Json[] {
    const refs = this.format.deltas(event);
    let skip: Skip | undefined;
    for (const ref of refs) {
      if (!this.fields.push(event, ref, undefined)) continue;
      // Restored by its field's rehydrator: the whole-event walk below leaves it alone.
      skip ??= new WeakMap();
      const holder = getAt(event, ref.path.slice(0, -1)) as object;
      const set = skip.get(holder) ?? new Set<string>();
      set.add(String(ref.path[ref.path.length - 1]));
      skip.set(holder, set);
    }
    const out = this.fields.release(endsOf(this.format, event, refs), event).map(restEvent);
    this.done += rehydrateJson(event, this.map, skip);
    out.push(event);
    return out;
  }

  /** Whatever is still held back when the stream ends without closing its fields. */
  end(): Json[] {
    return this.fields.release('all', null).map(restEvent);
  }
}

/** A copy of the field's last delta event carrying only its held-back text. */
const restEvent = (f: Released<undefined>): Json => copyWithOnly(f.template, f.ref.path, f.rest);
