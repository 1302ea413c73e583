import {
  anthropicDeltas,
  DeltaFields,
  type DeltaFormat,
  type DeltaRef,
  type Ends,
  endsOf,
} from '../../../src/engines/dlp/delta-fields.js';
import { copyWithOnly } from '../../../src/engines/dlp/json-path.js';
import type { TokenMap } from '../../../src/engines/dlp/token-map.js';

// Rehydrates a site's Server-Sent Events stream in the page. Each text field of the answer (a ChatGPT
// content part, an Anthropic content block, an OpenAI choice) is held by the DLP engine's DeltaFields (one
// StreamingRehydrator per field, the same holding as the network proxy's), so a token split across events
// is held back until it is whole and never shown half replaced, and fields streamed side by side never mix
// their held-back text. A field's held text is released only by the event that ends that field (its format
// says which) or by the end of the stream: pings, citations, metadata and heartbeats end nothing. Events
// that carry no text delta pass byte for byte.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Format extends DeltaFormat {
  /** The fields this event ends (their held text goes out with or before it). */
  ends(d: Obj, refs: readonly DeltaRef[]): Ends;
  /** An event carrying only `text` for a field, built from the last event that carried that field. */
  rest(template: Obj, delta: DeltaRef, text: string): Obj;
  /** Sees every event of the stream after its deltas were read (formats with state across events). */
  seen?(d: Obj): void;
  /** The data to write for a site event that passes (after rest events the page may need it explicit). */
  fix?(d: Obj): Obj | null;
}

const restCopy = (template: Obj, delta: DeltaRef, text: string): Obj =>
  copyWithOnly(template, delta.path, text);

const PART = /\/message\/content\/parts\/\d+$/;

/**
 * ChatGPT's "v1" patch encoding: {"p":"/message/content/parts/0","o":"append","v":"…"} then {"v":"…"},
 * which continues the last path and operation; {"o":"patch","v":[…]} is a batch of such operations. A
 * field is a content part (its path). A held-back rest goes out with an explicit path, so the page's
 * "last path" then differs from the site's: the site's next bare event is written with its path made
 * explicit. A part ends with the message (its status, a new message, the stream's completion).
 */
function chatgpt(): Format {
  const site: { p: string | null; o: unknown } = { p: null, o: 'append' };
  const page: { p: string | null; o: unknown } = { p: null, o: 'append' };
  const textOp = (p: unknown, o: unknown, v: unknown) =>
    o === 'append' && typeof v === 'string' && (p === null || PART.test(String(p)));
  const explicit = (d: Obj) => 'p' in d || 'o' in d;
  return {
    deltas(d) {
      const p = explicit(d) ? (typeof d['p'] === 'string' ? d['p'] : null) : site.p;
      const o = explicit(d) ? d['o'] : site.o;
      if (textOp(p, o, d['v'])) return [{ key: p ?? '', path: ['v'] }];
      if (o !== 'patch' || !Array.isArray(d['v'])) return [];
      const out: DeltaRef[] = [];
      (d['v'] as unknown[]).forEach((op, i) => {
        if (isObj(op) && typeof op['p'] === 'string' && textOp(op['p'], op['o'], op['v']))
          out.push({ key: op['p'], path: ['v', i, 'v'] });
      });
      return out;
    },
    ends(d) {
      if (typeof d['type'] === 'string' && /complete|error/i.test(d['type'])) return 'all';
      const ops = d['o'] === 'patch' && Array.isArray(d['v']) ? (d['v'] as unknown[]) : [d];
      for (const op of ops) {
        if (!isObj(op)) continue;
        // The message's status (set when it is finished) or a whole new message.
        if (op['p'] === '/message/status' && op['v'] !== 'in_progress') return 'all';
        if (op['p'] === '' && op['o'] === 'add') return 'all';
        if (isObj(op['v']) && isObj(op['v']['message']) && !('p' in op)) return 'all';
      }
      // The unnamed field (bare events before any path) can no longer be addressed once a path is set.
      return 'p' in d ? [''] : [];
    },
    rest(_template, delta, text) {
      return delta.key === '' ? { v: text } : { p: delta.key, o: 'append', v: text };
    },
    seen(d) {
      if (explicit(d)) {
        site.p = typeof d['p'] === 'string' ? d['p'] : null;
        site.o = d['o'];
      }
    },
    fix(d) {
      // Called for every event written, rest events included: `page` follows what the page last applied.
      if (explicit(d)) {
        page.p = typeof d['p'] === 'string' ? d['p'] : null;
        page.o = d['o'];
        return null;
      }
      if (!('v' in d) || (page.p === site.p && page.o === site.o)) return null;
      page.p = site.p;
      page.o = site.o;
      return { p: site.p ?? '', o: site.o, ...d };
    },
  };
}

/**
 * Anthropic (Claude web and API): the engine's rule, shared with the network proxy (a content block per
 * index, ended by its content_block_stop, or by message_delta, message_stop or error), text only: a tool's
 * input (input_json_delta) passes as the site sent it, as it always has here. Restoring it would hand the
 * page's own tools (which may run it, or send it back to the site in a later request the extension does not
 * tokenize there) the values in clear; that is a change of what the extension does, not of where the
 * rehydration lives.
 */
const anthropic: Format = {
  deltas: (d) => anthropicDeltas.deltas(d).filter((ref) => !ref.json),
  ends: (d, refs) => endsOf(anthropicDeltas, d, refs),
  rest: restCopy,
};

/** OpenAI chat-completions chunks (Mistral and OpenAI-compatible web apps): content per choice index. */
const openaiChat: Format = {
  deltas(d) {
    if (!Array.isArray(d['choices'])) return [];
    const out: DeltaRef[] = [];
    (d['choices'] as unknown[]).forEach((c, i) => {
      if (isObj(c) && isObj(c['delta']) && typeof c['delta']['content'] === 'string')
        out.push({ key: String(c['index'] ?? i), path: ['choices', i, 'delta', 'content'] });
    });
    return out;
  },
  // A choice ends with its finish reason; a chunk with no choices at all (usage) comes after them all.
  ends(d) {
    if (!Array.isArray(d['choices'])) return [];
    if (d['choices'].length === 0) return 'all';
    const keys: string[] = [];
    (d['choices'] as unknown[]).forEach((c, i) => {
      if (isObj(c) && c['finish_reason']) keys.push(String(c['index'] ?? i));
    });
    return keys;
  },
  rest: restCopy,
};

interface ParsedEvent {
  lines: string[];
  data: string | null;
}

function parseEvent(raw: string): ParsedEvent {
  const lines: string[] = [];
  const data: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    else lines.push(line);
  }
  return { lines, data: data.length > 0 ? data.join('\n') : null };
}

/** An SSE line: empty, a comment, or one of the fields (with or without a value). */
const SSE_LINE = /^(?:$|:|(?:data|event|id|retry)(?::|$))/;
/** An event named as the stream's end (an error, a close), whatever its data. */
const ENDING_NAME = /^event:\s*(?:error|done|close|end|end_of_stream|complete)\s*$/i;

export class SseRehydrator {
  private readonly formats: Format[] = [chatgpt(), anthropic, openaiChat];
  /** the format of this stream, known from its first text delta */
  private format: Format | null = null;
  /** the open fields, each with the SSE lines of its last event (a released rest goes out under them) */
  private readonly fields: DeltaFields<string[]>;
  /**
   * The unfinished event, as read: kept as a list and joined once when it ends, and only each new read (and
   * the last characters before it) is searched, so an event arriving in many small reads stays linear
   * (appending to one string and searching it would copy the whole of it at every read).
   */
  private parts: string[] = [];
  private pending = 0;
  private tail = '';
  private eol = '\n';
  /** The end of an event: a blank line (the longest separator is \r\n\r\n, so a rescan backs up 3). */
  private readonly eventEnd = /\r?\n\r?\n/g;
  /** null until the first line is seen; true when the body is not SSE (it then passes as it comes) */
  private passThrough: boolean | null = null;

  constructor(map: TokenMap) {
    this.fields = new DeltaFields(map);
  }

  get restored(): number {
    return this.fields.restored;
  }

  push(chunk: string): string {
    if (this.passThrough) return chunk;
    if (this.passThrough === null) {
      // A body labelled text/event-stream that is not SSE (Le Chat's numbered JSON lines, for one) has no
      // blank line between events: held here, it would reach the page only at its end. Its first line says.
      const nl = chunk.indexOf('\n');
      if (nl < 0) {
        this.parts.push(chunk);
        return '';
      }
      const before = this.parts.join('');
      this.parts = [];
      this.passThrough = !SSE_LINE.test((before + chunk.slice(0, nl)).replace(/\r$/, ''));
      if (this.passThrough) return before + chunk;
      chunk = before + chunk;
    }
    // A separator (at most \r\n\r\n) may begin in the last 3 characters already read.
    const scan = this.tail + chunk;
    this.eventEnd.lastIndex = 0;
    if (!this.eventEnd.test(scan)) {
      this.parts.push(chunk);
      this.pending += chunk.length;
      this.tail = scan.slice(-3);
      return '';
    }
    const text = [...this.parts, chunk].join('');
    let out = '';
    let start = 0;
    this.eventEnd.lastIndex = this.pending - this.tail.length;
    for (let m = this.eventEnd.exec(text); m; m = this.eventEnd.exec(text)) {
      if (m[0].startsWith('\r')) this.eol = '\r\n';
      out += this.event(text.slice(start, m.index));
      start = m.index + m[0].length;
    }
    const rest = text.slice(start);
    this.parts = rest.length > 0 ? [rest] : [];
    this.pending = rest.length;
    this.tail = rest.slice(-3);
    return out;
  }

  flush(): string {
    const rest = this.parts.join('');
    this.parts = [];
    this.pending = 0;
    this.tail = '';
    return (rest.length > 0 ? this.event(rest, false) : '') + this.release('all', null);
  }

  private serialise(lines: string[], data: unknown): string {
    const head = lines.filter((l) => l.length > 0);
    return [...head, `data: ${JSON.stringify(data)}`].join(this.eol) + this.eol + this.eol;
  }

  /** Writes what the format needs of an event the page gets; `raw` when it passes unchanged. */
  private write(lines: string[], data: Obj, raw: string | null): string {
    const fixed = this.format?.fix?.(data) ?? null;
    if (fixed === null && raw !== null) return raw;
    return this.serialise(lines, fixed ?? data);
  }

  /** Releases the held text of the fields `ends` names: into `event` when it carries the field. */
  private release(ends: Ends, event: Obj | null): string {
    let out = '';
    for (const f of this.fields.release(ends, event))
      out += this.write(
        f.meta.filter((l) => !l.startsWith('id:')),
        this.format!.rest(f.template, f.ref, f.rest),
        null,
      );
    return out;
  }

  private event(raw: string, terminated = true): string {
    const ev = parseEvent(raw);
    const passed = raw + (terminated ? this.eol + this.eol : '');
    if (ev.data === '[DONE]') return this.release('all', null) + passed;
    let data: unknown;
    try {
      data = ev.data === null ? undefined : JSON.parse(ev.data);
    } catch {
      data = undefined;
    }
    const named = ev.lines.some((l) => ENDING_NAME.test(l));
    if (!isObj(data)) {
      // No JSON object: a comment, a keep-alive, plain text. It ends the fields only when named an end.
      return (named ? this.release('all', null) : '') + passed;
    }
    let deltas: DeltaRef[] = [];
    if (this.format) deltas = this.format.deltas(data);
    else
      for (const f of this.formats) {
        deltas = f.deltas(data);
        if (deltas.length === 0) continue;
        this.format = f;
        break;
      }
    const format = this.format;
    if (!format) {
      // Nothing is held before the first delta; a stateful format still follows the stream.
      for (const f of this.formats) {
        f.seen?.(data);
        f.fix?.(data);
      }
      return passed;
    }
    for (const delta of deltas) this.fields.push(data, delta, ev.lines);
    const before = this.release(named ? 'all' : format.ends(data, deltas), data);
    format.seen?.(data);
    return before + this.write(ev.lines, data, deltas.length > 0 ? null : passed);
  }
}
