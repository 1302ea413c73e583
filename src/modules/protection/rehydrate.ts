import { DeltaFields, rehydrate, type TokenMap } from '../../engines/dlp/index.js';
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
/** Where a tool call's argument fragment is in its delta. */
const ARGUMENTS = ['function', 'arguments'];
type Json = Record<string, unknown>;

/** A held field of a choice: one of its delta texts, or one tool call's arguments. */
type Held = { choice: number; field: DeltaText } | { choice: number; call: number };

/**
 * Restores tokens in a stream of chunks, per choice: content, refusal and each tool call's argument fragments
 * are fields of the DLP engine's DeltaFields (each with its own streaming rehydrator; arguments in JSON mode,
 * so a value with quotes stays valid JSON). What a rehydrator holds back (the start of a possible token) is
 * released in the choice's finishing chunk. Chunks whose only text was held back are dropped; every other
 * field of a chunk is kept as it came.
 */
export class ChunkRehydrator {
  private readonly fields: DeltaFields<Held>;

  constructor(map: TokenMap) {
    this.fields = new DeltaFields(map);
  }

  get restored(): number {
    return this.fields.restored;
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
        const key = `${choice.index}:${field}`;
        this.fields.push(delta as Json, { key, path: [field] }, { choice: choice.index, field });
        if (delta[field] === '') emptied.add(field);
      }
      if (delta.tool_calls) {
        delta.tool_calls = delta.tool_calls.filter((tc) => {
          const fragment = tc.function?.arguments;
          if (typeof fragment === 'string' && fragment !== '' && tc.function) {
            const ref = { key: `${choice.index}:call:${tc.index}`, path: ARGUMENTS, json: true };
            this.fields.push(tc as unknown as Json, ref, { choice: choice.index, call: tc.index });
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
    const held = this.fields.held();
    if (held.length === 0) return null;
    const choices: ChatChunk['choices'] = [];
    // The choices with text held, then those with only arguments held.
    const indexes = new Set<number>([
      ...held.filter((h) => 'field' in h).map((h) => h.choice),
      ...held.filter((h) => 'call' in h).map((h) => h.choice),
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
    for (const { rest, meta } of this.fields.release((h) => h.choice === choice, null)) {
      if ('field' in meta) {
        delta[meta.field] = (delta[meta.field] ?? '') + rest;
        continue;
      }
      delta.tool_calls ??= [];
      const existing = delta.tool_calls.find((t: ToolCallDelta) => t.index === meta.call);
      if (existing) {
        existing.function ??= {};
        existing.function.arguments = (existing.function.arguments ?? '') + rest;
      } else delta.tool_calls.push({ index: meta.call, function: { arguments: rest } });
    }
  }
}
