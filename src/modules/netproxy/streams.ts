import { anthropicDeltas, type DeltaFormat, type DeltaRef, type TokenMap } from '../../engines/dlp/index.js';
import { type ChatChunk, SseParser, type SseEvent } from '../providers/index.js';
import { ChunkRehydrator, DeltaRehydrator } from '../protection/index.js';
import type { Operation } from './formats.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Cohere v2 chat: content-delta, tool-plan-delta and tool-call-delta events. */
const cohere: DeltaFormat = {
  deltas(e) {
    const key = `${String(e['type'])}:${String(e['index'] ?? 0)}`;
    switch (e['type']) {
      case 'content-delta':
        return [{ key, path: ['delta', 'message', 'content', 'text'] }];
      case 'tool-plan-delta':
        return [{ key, path: ['delta', 'message', 'tool_plan'] }];
      case 'tool-call-delta':
        return [{ key, path: ['delta', 'message', 'tool_calls', 'function', 'arguments'], json: true }];
      default:
        return [];
    }
  },
  // With documents, citations stream along with the text they cite: they end no field.
  ends(e) {
    return e['type'] === 'citation-start' || e['type'] === 'citation-end' ? [] : undefined;
  },
};

/** OpenAI Responses: output text, refusal and function-call argument deltas, per output item and part. */
const responses: DeltaFormat = {
  deltas(e) {
    const at = `${String(e['output_index'])}:${String(e['content_index'] ?? '')}`;
    switch (e['type']) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return [{ key: `t${at}`, path: ['delta'] }];
      case 'response.function_call_arguments.delta':
        return [{ key: `f${at}`, path: ['delta'], json: true }];
      default:
        return [];
    }
  },
  // Web search adds its citations while the text streams: they end no field.
  ends(e) {
    return e['type'] === 'response.output_text.annotation.added' ? [] : undefined;
  },
};

/** Gemini: every chunk is a whole response; text parts continue per candidate until its finish reason. */
const gemini: DeltaFormat = {
  deltas(e) {
    const refs: DeltaRef[] = [];
    const candidates = Array.isArray(e['candidates']) ? e['candidates'] : [];
    candidates.forEach((c: unknown, i) => {
      if (!isObj(c) || !isObj(c['content']) || !Array.isArray(c['content']['parts'])) return;
      const key = String(c['index'] ?? i);
      c['content']['parts'].forEach((p: unknown, j) => {
        if (isObj(p) && typeof p['text'] === 'string' && p['thought'] !== true)
          refs.push({ key, path: ['candidates', i, 'content', 'parts', j, 'text'] });
      });
    });
    return refs;
  },
  // Candidates stream side by side (candidateCount > 1): each one's text ends with its own finish reason,
  // or when a chunk of it carries no text (a function call); a chunk without candidates (usage) ends all.
  ends(e, refs) {
    const candidates = Array.isArray(e['candidates']) ? e['candidates'] : [];
    if (candidates.length === 0) return 'all';
    // The candidates with text in this chunk are the keys of its deltas, just read by `deltas`.
    const withText = new Set(refs.map((r) => r.key));
    const keys: string[] = [];
    candidates.forEach((c: unknown, i) => {
      if (!isObj(c)) return;
      const key = String(c['index'] ?? i);
      if (c['finishReason'] || !withText.has(key)) keys.push(key);
    });
    return keys;
  },
};

/** Legacy completions: each choice's `text` continues until its finish reason. */
const completions: DeltaFormat = {
  deltas(e) {
    const refs: DeltaRef[] = [];
    const choices = Array.isArray(e['choices']) ? e['choices'] : [];
    choices.forEach((c: unknown, i) => {
      if (isObj(c) && typeof c['text'] === 'string')
        refs.push({ key: String(c['index'] ?? i), path: ['choices', i, 'text'] });
    });
    return refs;
  },
  ends(e) {
    const choices = Array.isArray(e['choices']) ? e['choices'] : [];
    if (choices.length === 0) return 'all';
    return choices.flatMap((c: unknown, i) => (isObj(c) && c['finish_reason'] ? [String(c['index'] ?? i)] : []));
  },
};

/** Mistral conversations: message output deltas (text, or a text chunk) and function-call argument deltas. */
const conversations: DeltaFormat = {
  deltas(e) {
    const at = `${String(e['output_index'] ?? 0)}:${String(e['content_index'] ?? 0)}`;
    if (e['type'] === 'message.output.delta') {
      if (typeof e['content'] === 'string') return [{ key: `m${at}`, path: ['content'] }];
      if (isObj(e['content']) && typeof e['content']['text'] === 'string')
        return [{ key: `m${at}`, path: ['content', 'text'] }];
    }
    if (e['type'] === 'function.call.delta' && typeof e['arguments'] === 'string')
      return [{ key: `f${at}`, path: ['arguments'], json: true }];
    return [];
  },
};

/** Cohere v1 chat (newline-delimited JSON): text-generation events carry the text. */
const cohereV1: DeltaFormat = {
  deltas(e) {
    return e['event_type'] === 'text-generation' && typeof e['text'] === 'string'
      ? [{ key: 'text', path: ['text'] }]
      : [];
  },
  // Citations stream along with the text they cite: they end no field.
  ends(e) {
    return e['event_type'] === 'citation-generation' ? [] : undefined;
  },
};

/** Answers that are not streamed in deltas: every token restored where it stands in each event. */
const whole: DeltaFormat = { deltas: () => [] };

/** Rewrites the JSON events of one response stream; `end` gives what was still held back. */
export interface EventRewriter {
  event(e: Json): Json[];
  end(): Json[];
  readonly restored: number;
}

/** OpenAI chat chunks (OpenAI, Mistral, Groq) through the provider proxy's chunk rehydrator. */
class ChatChunkRewriter implements EventRewriter {
  private readonly r: ChunkRehydrator;
  private last: ChatChunk | undefined;

  constructor(map: TokenMap) {
    this.r = new ChunkRehydrator(map);
  }

  get restored(): number {
    return this.r.restored;
  }

  event(e: Json): Json[] {
    if (!Array.isArray(e['choices'])) return [e];
    const chunk = e as unknown as ChatChunk;
    this.last = chunk;
    return this.r.transform(chunk) ? [e] : [];
  }

  end(): Json[] {
    const tail = this.r.finish(this.last);
    return tail ? [tail as unknown as Json] : [];
  }
}

/** The delta format of each streamed operation; the others' answers have their tokens restored in place. */
const DELTAS: Partial<Record<Operation, DeltaFormat>> = {
  'openai-completions': completions,
  'mistral-conversations': conversations,
  'cohere-v1-chat': cohereV1,
  'openai-responses': responses,
  'anthropic-messages': anthropicDeltas,
  'gemini-generate': gemini,
  'cohere-chat': cohere,
};

export function rewriterFor(op: Operation, map: TokenMap): EventRewriter {
  // OpenAI chat chunks (Mistral FIM and agents alike) have the provider proxy's own chunk rehydrator.
  if (op === 'openai-chat' || op === 'mistral-fim') return new ChatChunkRewriter(map);
  return new DeltaRehydrator(map, DELTAS[op] ?? whole);
}

/**
 * Splits a streamed JSON array (Gemini's streamGenerateContent without alt=sse) into its elements as
 * they complete: brackets and braces are counted outside strings.
 */
export class JsonArraySplitter {
  private buffer = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private start = -1;
  private scanned = 0;

  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
        continue;
      }
      if (ch === '"') this.inString = true;
      else if (ch === '{' || ch === '[') {
        if (this.depth === 1 && this.start === -1) this.start = i;
        this.depth++;
      } else if (ch === '}' || ch === ']') {
        this.depth--;
        if (this.depth === 1 && this.start !== -1) {
          out.push(this.buffer.slice(this.start, i + 1));
          this.start = -1;
        }
      }
    }
    // Keep only what an unfinished element needs.
    if (this.start === -1) {
      this.buffer = '';
      this.scanned = 0;
    } else {
      this.buffer = this.buffer.slice(this.start);
      this.start = 0;
      this.scanned = this.buffer.length;
    }
    return out;
  }
}

/**
 * The network proxy's rewriting of one streamed answer, from the upstream's bytes to the text the client
 * gets: one UTF-8 decoder for the whole stream (a read may end inside a multi-byte character, whose bytes
 * the decoder keeps for the next read), the SSE parser or the JSON array splitter, the format's rewriter,
 * and the framing. `push` and `end` are lazy: each piece is rewritten only when the caller asks for it, so
 * the caller can write (and flush) the answer's first event before the rest of its read is rewritten.
 */
export class StreamRelay {
  private readonly rewriter: EventRewriter;
  private readonly utf8 = new TextDecoder('utf-8');
  private readonly parser: SseParser | null;
  private readonly splitter: JsonArraySplitter | null;
  private lines = '';
  private first = true;

  /**
   * `sse`: text/event-stream, else a streamed JSON array, or with `ndjson` one JSON object a line (Cohere
   * v1); `crlf`: the line ending of the frames written; `observe` sees every parsed upstream event before it
   * is rewritten (usage counts).
   */
  constructor(
    op: Operation,
    map: TokenMap,
    private readonly options: { sse: boolean; ndjson?: boolean; crlf: string; observe?: (e: Json) => void },
  ) {
    this.rewriter = rewriterFor(op, map);
    this.parser = options.sse ? new SseParser() : null;
    this.splitter = options.sse || options.ndjson ? null : new JsonArraySplitter();
  }

  get restored(): number {
    return this.rewriter.restored;
  }

  /** True once a streamed JSON array's opening bracket was given out (an error frame must not repeat it). */
  get opened(): boolean {
    return !this.first;
  }

  /** The text to send for one read of the upstream body, piece by piece. */
  *push(bytes: Uint8Array): Generator<string> {
    const text = this.utf8.decode(bytes, { stream: true });
    if (this.parser) yield* this.sseEvents(this.parser.push(text));
    else if (!this.splitter) yield* this.ndjsonLines(text, false);
    else for (const element of this.splitter.push(text)) yield* this.element(JSON.parse(element) as Json);
  }

  /** Whole lines of a newline-delimited JSON stream; the unfinished last line waits for the next read. */
  private *ndjsonLines(text: string, last: boolean): Generator<string> {
    this.lines += text;
    const cut = last ? this.lines.length : this.lines.lastIndexOf('\n') + 1;
    const whole = this.lines.slice(0, cut);
    this.lines = this.lines.slice(cut);
    for (const line of whole.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = JSON.parse(line) as Json;
      this.options.observe?.(parsed);
      for (const out of this.rewriter.event(parsed)) yield `${JSON.stringify(out)}\n`;
    }
  }

  /** What is left when the upstream body ends: held-back text, then a closing `[DONE]` or `]`. */
  *end(): Generator<string> {
    const tail = this.utf8.decode();
    if (this.parser) {
      yield* this.sseEvents(this.parser.push(tail));
      // The held-back tail goes before a closing [DONE], which has to stay last.
      const rest = this.parser.end();
      yield* this.sseEvents(rest.filter((e) => e.data !== '[DONE]'));
      for (const e of this.rewriter.end()) yield this.frame(undefined, JSON.stringify(e));
      for (const e of rest) if (e.data === '[DONE]') yield this.frame(e.event, e.data);
      return;
    }
    if (!this.splitter) {
      yield* this.ndjsonLines(tail, true);
      for (const e of this.rewriter.end()) yield `${JSON.stringify(e)}\n`;
      return;
    }
    if (tail !== '')
      for (const element of this.splitter.push(tail)) yield* this.element(JSON.parse(element) as Json);
    for (const e of this.rewriter.end()) yield this.arrayItem(e);
    yield this.first ? '[]' : ']';
  }

  private frame(event: string | undefined, data: string): string {
    const crlf = this.options.crlf;
    return `${event ? `event: ${event}${crlf}` : ''}data: ${data}${crlf}${crlf}`;
  }

  private *sseEvents(events: SseEvent[]): Generator<string> {
    for (const e of events) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(e.data);
      } catch {
        yield this.frame(e.event, e.data); // [DONE] and other plain data
        continue;
      }
      if (!parsed || typeof parsed !== 'object') {
        yield this.frame(e.event, e.data);
        continue;
      }
      this.options.observe?.(parsed as Json);
      for (const out of this.rewriter.event(parsed as Json)) {
        const name = e.event && typeof out['type'] === 'string' ? out['type'] : e.event;
        yield this.frame(name, JSON.stringify(out));
      }
    }
  }

  private *element(parsed: Json): Generator<string> {
    this.options.observe?.(parsed);
    for (const out of this.rewriter.event(parsed)) yield this.arrayItem(out);
  }

  /** An element of the JSON array: the opening bracket goes out with the first one. */
  private arrayItem(e: Json): string {
    const text = `${this.first ? '[' : `,${this.options.crlf}`}${JSON.stringify(e)}`;
    this.first = false;
    return text;
  }
}
