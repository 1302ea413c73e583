import { rehydrate, StreamingRehydrator, type TokenMap } from '../../engines/dlp/index.js';
import { copyWithOnly, getAt, setAt } from '../../engines/dlp/json-path.js';

// Reasoning the provider signs is sent back verbatim in the next turn: left as it came, tokens included.
const SKIP_KEYS = new Set(['thinking', 'signature', 'thoughtSignature', 'encrypted_content', 'data']);
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

/** A text fragment of a streamed event that continues in later events (a delta). */
export interface DeltaRef {
  /** Which logical field it continues (per content block, choice or tool call). */
  key: string;
  /** Where the fragment is in the event. */
  path: ReadonlyArray<string | number>;
  /** JSON text (tool-call arguments): restored values are escaped. */
  json?: boolean;
}

/** How one native stream format carries its deltas. */
export interface DeltaFormat {
  deltas(event: Json): DeltaRef[];
  /**
   * Which open fields this event ends ('all', or their keys): their held-back text is released into it (or
   * just before it). Without it, an event without deltas ends every field. An event that passes between two
   * deltas of a field (a keep-alive ping, another candidate finishing) must not end it: the start of a token
   * held back would be released, and the token never restored. `refs` are the event's deltas, as
   * `deltas` just gave them. `undefined`: the default (an event without deltas ends every field).
   */
  ends?(event: Json, refs: readonly DeltaRef[]): 'all' | readonly string[] | undefined;
}

interface Open {
  r: StreamingRehydrator;
  /** The last event that carried this field: the template of an event that releases the rest. */
  template: Json;
  path: ReadonlyArray<string | number>;
}

/**
 * Restores tokens in a stream of JSON events in a native format. Each delta field has its own streaming
 * rehydrator, so a token split across events is restored whole and never released in part. Held-back text
 * is released when the field's block ends (DeltaFormat.ends): into the closing event when it carries the same field, else as
 * a copy of the field's last delta event placed before it. Events without deltas are restored whole.
 */
export class DeltaRehydrator {
  private readonly open = new Map<string, Open>();
  private done = 0;

  constructor(
    private readonly map: TokenMap,
    private readonly format: DeltaFormat,
  ) {}

  get restored(): number {
    let n = this.done;
    for (const o of this.open.values()) n += o.r.restored;
    return n;
  }

  /** The events to send in place of `event`, in order (empty deltas are kept: they may carry ids). */
  event(event: Json): Json[] {
    const refs = this.format.deltas(event);
    let skip: Skip | undefined;
    for (const ref of refs) {
      const text = getAt(event, ref.path);
      if (typeof text !== 'string') continue;
      let o = this.open.get(ref.key);
      if (!o) {
        o = {
          r: new StreamingRehydrator(this.map, ref.json ? { json: true } : {}),
          template: event,
          path: ref.path,
        };
        this.open.set(ref.key, o);
      }
      o.template = event;
      o.path = ref.path;
      setAt(event, ref.path, o.r.push(text));
      skip ??= new WeakMap();
      const holder = getAt(event, ref.path.slice(0, -1)) as object;
      const set = skip.get(holder) ?? new Set<string>();
      set.add(String(ref.path[ref.path.length - 1]));
      skip.set(holder, set);
    }
    const out: Json[] = [];
    const ends = this.format.ends?.(event, refs) ?? (refs.length === 0 ? 'all' : []);
    if (ends === 'all' || ends.length > 0) {
      for (const [key, o] of this.open) {
        if (ends !== 'all' && !ends.includes(key)) continue;
        const rest = o.r.flush();
        this.done += o.r.restored;
        this.open.delete(key);
        if (!rest) continue;
        if (o.template === event) setAt(event, o.path, `${getAt(event, o.path) as string}${rest}`);
        else out.push(this.restEvent(o, rest));
      }
    }
    this.done += rehydrateJson(event, this.map, skip);
    out.push(event);
    return out;
  }

  /** Whatever is still held back when the stream ends without closing its fields. */
  end(): Json[] {
    const out: Json[] = [];
    for (const [key, o] of this.open) {
      const rest = o.r.flush();
      this.done += o.r.restored;
      this.open.delete(key);
      if (rest) out.push(this.restEvent(o, rest));
    }
    return out;
  }

  /** A copy of the field's last delta event carrying only `rest`. */
  private restEvent(o: Open, rest: string): Json {
    return copyWithOnly(o.template, o.path, rest);
  }
}
