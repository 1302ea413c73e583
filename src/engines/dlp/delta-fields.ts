import { getAt, type JsonPath, setAt } from './json-path.js';
import { StreamingRehydrator } from './streaming.js';
import type { TokenMap } from './token-map.js';

// The per-field holding of a streamed answer made of JSON events whose text fields continue from event to
// event (deltas), shared by the server (the network proxy's DeltaRehydrator) and the browser extension (its
// in-page SSE rehydration): each field has its own StreamingRehydrator, so a token split across events is
// restored whole and never released in part, and fields streamed side by side never mix their held text.
// What a field is, and which event ends it, is the format's (DeltaFormat); what an event that ends a field
// but does not carry it looks like is the caller's (it gets the held text and the field's last event).

type Obj = Record<string, unknown>;

/** A text fragment of a streamed event that continues in later events (a delta). */
export interface DeltaRef {
  /** Which logical field it continues (per content block, choice, candidate or tool call). */
  key: string;
  /** Where the fragment is in the event. */
  path: JsonPath;
  /** JSON text (tool-call arguments, tool inputs): restored values are escaped for it. */
  json?: boolean;
}

/** The open fields an event ends: every one, or those keys. */
export type Ends = 'all' | readonly string[];

/** How one stream format carries its deltas. */
export interface DeltaFormat {
  deltas(event: Obj): DeltaRef[];
  /**
   * Which open fields this event ends: their held-back text is released into it (or just before it).
   * Without it, an event without deltas ends every field. An event that passes between two deltas of a field
   * (a keep-alive ping, another candidate finishing) must not end it: the start of a token held back would
   * be released, and the token never restored. `refs` are the event's deltas, as `deltas` just gave them.
   * `undefined`: the default (an event without deltas ends every field).
   */
  ends?(event: Obj, refs: readonly DeltaRef[]): Ends | undefined;
}

/** The fields `event` ends by its format's rule, or by the default when the rule has none. */
export function endsOf(format: DeltaFormat, event: Obj, refs: readonly DeltaRef[]): Ends {
  return format.ends?.(event, refs) ?? (refs.length === 0 ? 'all' : []);
}

/** A field whose held text was released but not into the ending event: the caller sends it before. */
export interface Released<M> {
  key: string;
  /** The held text. */
  rest: string;
  /** The last event that carried this field (a template for the event that carries `rest`). */
  template: Obj;
  /** The field's delta in that event. */
  ref: DeltaRef;
  /** What the caller attached to the field's last delta (its SSE lines, for one). */
  meta: M;
}

interface Open<M> {
  r: StreamingRehydrator;
  template: Obj;
  ref: DeltaRef;
  meta: M;
}

/** The open delta fields of one stream, each with its own streaming rehydrator. */
export class DeltaFields<M = undefined> {
  private readonly open = new Map<string, Open<M>>();
  private done = 0;

  constructor(private readonly map: TokenMap) {}

  /** Tokens restored so far, in released and open fields. */
  get restored(): number {
    let n = this.done;
    for (const o of this.open.values()) n += o.r.restored;
    return n;
  }

  /**
   * Passes the text of `ref` in `event` through its field's rehydrator, in place: what could still be the
   * start of a token is held back. `event` becomes the field's template. False when no string is there.
   */
  push(event: Obj, ref: DeltaRef, meta: M): boolean {
    const text = getAt(event, ref.path);
    if (typeof text !== 'string') return false;
    let o = this.open.get(ref.key);
    if (!o) {
      o = {
        r: new StreamingRehydrator(this.map, ref.json ? { json: true } : {}),
        template: event,
        ref,
        meta,
      };
      this.open.set(ref.key, o);
    }
    o.template = event;
    o.ref = ref;
    o.meta = meta;
    setAt(event, ref.path, o.r.push(text));
    return true;
  }

  /** What the caller attached to each open field, in the order the fields opened. */
  held(): M[] {
    return [...this.open.values()].map((o) => o.meta);
  }

  /**
   * Releases the held text of the fields `ends` names, or of those whose attachment it accepts (`event`
   * null: at the end of the stream). A field whose last delta is `event` itself gets its text appended
   * there; the others are returned, in the order the fields opened, for the caller to send with or just
   * before `event`.
   */
  release(ends: Ends | ((meta: M) => boolean), event: Obj | null): Released<M>[] {
    const out: Released<M>[] = [];
    if (Array.isArray(ends) && ends.length === 0) return out;
    for (const [key, o] of this.open) {
      if (typeof ends === 'function' ? !ends(o.meta) : ends !== 'all' && !ends.includes(key)) continue;
      const rest = o.r.flush();
      this.done += o.r.restored;
      this.open.delete(key);
      if (rest.length === 0) continue;
      if (o.template === event) setAt(event, o.ref.path, `${getAt(event, o.ref.path) as string}${rest}`);
      else out.push({ key, rest, template: o.template, ref: o.ref, meta: o.meta });
    }
    return out;
  }
}

/**
 * Anthropic Messages (the API, and claude.ai's own stream): content_block_delta events, per content block
 * index; text in `text_delta`, a tool's input as JSON text in `input_json_delta`. A block ends at its
 * content_block_stop; message_delta (the stop reason), message_stop and error end every block. Nothing else
 * ends a block: pings come at any point, other deltas (thinking, citations) and events of a kind not listed
 * (claude.ai's message_limit, a block starting) may come between two deltas of a block, and ending it there
 * would release the start of a token that is then never restored; the end of the stream releases the rest.
 */
export const anthropicDeltas: DeltaFormat = {
  deltas(e) {
    const delta = e['delta'];
    if (e['type'] !== 'content_block_delta' || typeof delta !== 'object' || delta === null) return [];
    const d = delta as Obj;
    const key = String(e['index'] ?? 0);
    if (d['type'] === 'text_delta' && typeof d['text'] === 'string')
      return [{ key, path: ['delta', 'text'] }];
    if (d['type'] === 'input_json_delta' && typeof d['partial_json'] === 'string')
      return [{ key, path: ['delta', 'partial_json'], json: true }];
    return [];
  },
  ends(e) {
    switch (e['type']) {
      case 'content_block_stop':
        return [String(e['index'] ?? 0)];
      case 'message_delta':
      case 'message_stop':
      case 'error':
        return 'all';
      default:
        return [];
    }
  },
};
