import { rehydrate, StreamingRehydrator, type TokenMap } from '../../engines/dlp/index.js';
import type { ChatChunk, ChatResponse, ChunkDelta, ToolCallDelta } from '../providers/index.js';

/** Restores tokens in a whole response: message text, refusals and tool-call arguments (JSON-escaped). */
export function rehydrateResponse(res: ChatResponse, map: TokenMap): number {
  let restored = 0;
  const text = (s: string, json = false) => {
    const out = rehydrate(s, map, { json });
    restored += out.restored;
    return out.text;
  };
  for (const choice of res.choices ?? []) {
    const m = choice.message;
    if (!m) continue;
    if (typeof m.content === 'string') m.content = text(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        const p = part as { type?: unknown; text?: unknown };
        if (p.type === 'text' && typeof p.text === 'string') p.text = text(p.text);
      }
    }
    if (typeof m.refusal === 'string') m.refusal = text(m.refusal);
    for (const call of m.tool_calls ?? []) {
      if (typeof call.function?.arguments === 'string')
        call.function.arguments = text(call.function.arguments, true);
    }
  }
  return restored;
}

/** The text fields of a chunk's delta that continue from chunk to chunk. */
const DELTA_TEXTS = ['content', 'refusal'] as const;
type DeltaText = (typeof DELTA_TEXTS)[number];

/**
 * Restores tokens in a stream of chunks, per choice: content, refusal and each tool call's argument fragments
 * have their own streaming rehydrator (arguments in JSON mode, so a value with quotes stays valid JSON). What a
 * rehydrator holds back (the start of a possible token) is released in the choice's finishing chunk.
 * Chunks whose only text was held back are dropped; every other field of a chunk is kept as it came.
 */
export class ChunkRehydrator {
  private readonly map: TokenMap;
  private readonly text = new Map<string, { choice: number; field: DeltaText; r: StreamingRehydrator }>();
  private readonly args = new Map<string, { choice: number; index: number; r: StreamingRehydrator }>();
  private done = 0;

  constructor(map: TokenMap) {
    this.map = map;
  }

  get restored(): number {
    let n = this.done;
    for (const t of this.text.values()) n += t.r.restored;
    for (const a of this.args.values()) n += a.r.restored;
    return n;
  }

  private textOf(choice: number, field: DeltaText): StreamingRehydrator {
    const key = `${choice}:${field}`;
    let t = this.text.get(key);
    if (!t) {
      t = { choice, field, r: new StreamingRehydrator(this.map) };
      this.text.set(key, t);
    }
    return t.r;
  }

  private argsOf(choice: number, index: number): StreamingRehydrator {
    const key = `${choice}:${index}`;
    let a = this.args.get(key);
    if (!a) {
      a = { choice, index, r: new StreamingRehydrator(this.map, { json: true }) };
      this.args.set(key, a);
    }
    return a.r;
  }

  /** Rewrites the chunk in place; returns false when nothing is left worth sending. */
  transform(chunk: ChatChunk): boolean {
    let keep = chunk.choices.length === 0 || Boolean(chunk.usage);
    for (const choice of chunk.choices) {
      const delta: ChunkDelta = choice.delta ?? {};
      choice.delta = delta;
      // A field whose text was all held back is not worth a chunk; one that came empty may be (a role).
      const emptied = new Set<DeltaText>();
      for (const field of DELTA_TEXTS) {
        const piece = delta[field];
        if (typeof piece !== 'string' || piece === '') continue;
        delta[field] = this.textOf(choice.index, field).push(piece);
        if (delta[field] === '') emptied.add(field);
      }
      if (delta.tool_calls) {
        delta.tool_calls = delta.tool_calls.filter((tc) => {
          const fragment = tc.function?.arguments;
          if (typeof fragment === 'string' && fragment !== '' && tc.function) {
            tc.function.arguments = this.argsOf(choice.index, tc.index).push(fragment);
            return tc.function.arguments !== '' || tc.id !== undefined || tc.function.name !== undefined;
          }
          return true;
        });
        if (delta.tool_calls.length === 0) delete delta.tool_calls;
      }
      if (choice.finish_reason) this.release(choice.index, delta);
      const meaningful =
        choice.finish_reason !== null ||
        delta.role !== undefined ||
        (typeof delta.content === 'string' && !emptied.has('content')) ||
        delta.tool_calls !== undefined ||
        (delta.refusal !== undefined && delta.refusal !== null && !emptied.has('refusal'));
      if (meaningful) keep = true;
    }
    return keep;
  }

  /** Whatever is still held back at the end of a stream that never sent a finish reason. */
  finish(template: ChatChunk | undefined): ChatChunk | null {
    if (this.text.size === 0 && this.args.size === 0) return null;
    const choices: ChatChunk['choices'] = [];
    const indexes = new Set<number>([
      ...[...this.text.values()].map((t) => t.choice),
      ...[...this.args.values()].map((a) => a.choice),
    ]);
    for (const index of indexes) {
      const delta: ChunkDelta = {};
      this.release(index, delta);
      if (delta.content || delta.refusal || delta.tool_calls)
        choices.push({ index, delta, finish_reason: null });
    }
    if (choices.length === 0) return null;
    return {
      id: template?.id ?? 'chatcmpl-parapet',
      object: 'chat.completion.chunk',
      created: template?.created ?? Math.floor(Date.now() / 1000),
      model: template?.model ?? '',
      choices,
    };
  }

  private release(choice: number, delta: ChunkDelta): void {
    for (const [key, t] of this.text) {
      if (t.choice !== choice) continue;
      const rest = t.r.flush();
      this.done += t.r.restored;
      this.text.delete(key);
      if (rest) delta[t.field] = (delta[t.field] ?? '') + rest;
    }
    for (const [key, a] of this.args) {
      if (a.choice !== choice) continue;
      const rest = a.r.flush();
      this.done += a.r.restored;
      this.args.delete(key);
      if (!rest) continue;
      delta.tool_calls ??= [];
      const existing = delta.tool_calls.find((t: ToolCallDelta) => t.index === a.index);
      if (existing) {
        existing.function ??= {};
        existing.function.arguments = (existing.function.arguments ?? '') + rest;
      } else delta.tool_calls.push({ index: a.index, function: { arguments: rest } });
    }
  }
}
