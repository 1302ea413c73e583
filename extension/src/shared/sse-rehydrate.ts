import { StreamingRehydrator } from '../../../src/engines/dlp/streaming.js';
import type { TokenMap } from '../../../src/engines/dlp/token-map.js';

// Rehydrates a site's Server-Sent Events stream in the page: the text deltas of each event pass through one
// StreamingRehydrator, so a token split across events is held back until it is whole and never shown half
// replaced. Events that carry no text delta pass unchanged (after the held-back text, flushed first).

interface Codec {
  read(data: unknown): string | undefined;
  write(data: unknown, text: string): unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const CODECS: Codec[] = [
  // ChatGPT "v1" patch encoding: {"p":"/message/content/parts/0","o":"append","v":"…"} then {"v":"…"}
  {
    read(d) {
      if (!isObj(d) || typeof d['v'] !== 'string') return undefined;
      if (d['o'] !== undefined && d['o'] !== 'append') return undefined;
      if (d['p'] !== undefined && !/\/message\/content\/parts\/\d+$/.test(String(d['p']))) return undefined;
      return d['v'];
    },
    write: (d, text) => ({ ...(d as Obj), v: text }),
  },
  // Anthropic shape (Claude web and API): content_block_delta / text_delta
  {
    read(d) {
      if (!isObj(d) || d['type'] !== 'content_block_delta' || !isObj(d['delta'])) return undefined;
      const delta = d['delta'];
      return delta['type'] === 'text_delta' && typeof delta['text'] === 'string' ? delta['text'] : undefined;
    },
    write: (d, text) => ({ ...(d as Obj), delta: { ...((d as Obj)['delta'] as Obj), text } }),
  },
  // OpenAI chat-completions chunks (Mistral and OpenAI-compatible web apps)
  {
    read(d) {
      if (!isObj(d) || !Array.isArray(d['choices']) || d['choices'].length !== 1) return undefined;
      const c = d['choices'][0];
      if (!isObj(c) || !isObj(c['delta'])) return undefined;
      const content = c['delta']['content'];
      return typeof content === 'string' ? content : undefined;
    },
    write(d, text) {
      const o = d as Obj;
      const c = (o['choices'] as Obj[])[0]!;
      return { ...o, choices: [{ ...c, delta: { ...(c['delta'] as Obj), content: text } }] };
    },
  },
];

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

export class SseRehydrator {
  private readonly rehydrator: StreamingRehydrator;
  private buffer = '';
  private template: { lines: string[]; data: unknown; codec: Codec } | null = null;
  private eol = '\n';
  /** null until the first line is seen; true when the body is not SSE (it then passes as it comes) */
  private passThrough: boolean | null = null;

  constructor(map: TokenMap) {
    this.rehydrator = new StreamingRehydrator(map);
  }

  get restored(): number {
    return this.rehydrator.restored;
  }

  push(chunk: string): string {
    if (this.passThrough) return chunk;
    this.buffer += chunk;
    if (this.passThrough === null) {
      // A body labelled text/event-stream that is not SSE (Le Chat's numbered JSON lines, for one) has no
      // blank line between events: held here, it would reach the page only at its end. Its first line says.
      const nl = this.buffer.search(/\r?\n/);
      if (nl < 0) return '';
      this.passThrough = !SSE_LINE.test(this.buffer.slice(0, nl));
      if (this.passThrough) {
        const all = this.buffer;
        this.buffer = '';
        return all;
      }
    }
    let out = '';
    for (;;) {
      const m = /\r?\n\r?\n/.exec(this.buffer);
      if (!m) break;
      if (m[0].startsWith('\r')) this.eol = '\r\n';
      const raw = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      out += this.event(raw);
    }
    return out;
  }

  flush(): string {
    const rest = this.buffer;
    this.buffer = '';
    return this.flushHeld() + (rest.length > 0 ? this.event(rest, false) : '');
  }

  private serialise(lines: string[], data: unknown): string {
    const head = lines.filter((l) => l.length > 0);
    return [...head, `data: ${JSON.stringify(data)}`].join(this.eol) + this.eol + this.eol;
  }

  private flushHeld(): string {
    const held = this.rehydrator.flush();
    if (held.length === 0 || this.template === null) return held;
    const { lines, data, codec } = this.template;
    return this.serialise(lines, codec.write(data, held));
  }

  private event(raw: string, terminated = true): string {
    const ev = parseEvent(raw);
    const end = terminated ? this.eol + this.eol : '';
    if (ev.data !== null && ev.data !== '[DONE]') {
      let data: unknown;
      try {
        data = JSON.parse(ev.data);
      } catch {
        data = undefined;
      }
      for (const codec of CODECS) {
        const text = data === undefined ? undefined : codec.read(data);
        if (text === undefined) continue;
        this.template = { lines: ev.lines, data, codec };
        return this.serialise(ev.lines, codec.write(data, this.rehydrator.push(text)));
      }
    }
    // Other events (metadata, progress) pass as they are; held text waits for the next delta unless the
    // stream is ending, so a token split around a metadata event still comes out whole.
    const ending =
      ev.data === '[DONE]' ||
      ev.lines.some((l) => /^event:.*(stop|done|end|error)/i.test(l)) ||
      (ev.data !== null && /"type"\s*:\s*"[^"]*(stop|complete|done|end|error)[^"]*"/i.test(ev.data));
    return (ending ? this.flushHeld() : '') + raw + end;
  }
}
