// The streamed formats of the fuzz: a generated answer framed as each provider streams it, and what a client
// reads back from the rewritten stream (the pieces of each field, in the order they arrived).
import assert from 'node:assert/strict';
import type { Operation } from '../../src/modules/netproxy/formats.js';
import {
  chance,
  type GenArgs,
  type GenText,
  genArgs,
  genText,
  int,
  partialToken,
  pick,
  type Rng,
  splitDeltas,
  type Vault,
} from './stream-fuzz.js';

type Json = Record<string, unknown>;

export interface Tool {
  id: string;
  name: string;
  args: GenArgs;
}

export interface Plan {
  texts: GenText[];
  tools: Tool[];
}

export function makePlan(rng: Rng, vault: Vault): Plan {
  const texts = Array.from({ length: int(rng, 1, 2) }, () => genText(rng, vault, int(rng, 0, 160)));
  const tools = Array.from({ length: chance(rng, 0.6) ? int(rng, 1, 2) : 0 }, (_, i) => ({
    id: `call_${i}`,
    name: pick(rng, ['send_mail', 'lookup', 'save_note']),
    args: genArgs(rng, vault),
  }));
  return { texts, tools };
}

export interface UpstreamEvent {
  event?: string;
  data: string;
}

/** What the client must get per field: plain text, or JSON text that parses to `json`. */
export type Expected = Map<string, { text: string } | { json: unknown }>;

export interface ClientView {
  /** Per field, the pieces in the order the client got them. */
  fields: Map<string, string[]>;
  /** Whole values the client can also read (done events, function calls): [what, got, expected]. */
  whole: Array<[string, unknown, unknown]>;
}

export interface StreamFormat {
  name: string;
  op: Operation;
  sse: boolean;
  /** Line ending of the frames the proxy writes. */
  crlf: string;
  build(
    rng: Rng,
    plan: Plan,
  ): { events: UpstreamEvent[]; expected: Expected; whole: Array<[string, unknown]> };
  read(out: string): ClientView;
}

const textDeltas = (rng: Rng, t: GenText) => splitDeltas(rng, t.model, t.cuts);
const argDeltas = (rng: Rng, a: GenArgs) => splitDeltas(rng, a.model, a.cuts);
const data = (o: unknown, event?: string): UpstreamEvent =>
  event ? { event, data: JSON.stringify(o) } : { data: JSON.stringify(o) };

/** Merges sequences at random, each keeping its own order (choices or candidates streamed together). */
function interleave<T>(rng: Rng, seqs: T[][]): T[] {
  const at = seqs.map(() => 0);
  const out: T[] = [];
  for (;;) {
    const open = seqs.map((_, i) => i).filter((i) => at[i]! < seqs[i]!.length);
    if (open.length === 0) return out;
    const i = pick(rng, open);
    out.push(seqs[i]![at[i]!++]!);
  }
}

function push(fields: Map<string, string[]>, key: string, piece: unknown): void {
  if (typeof piece !== 'string') return;
  const list = fields.get(key) ?? [];
  list.push(piece);
  fields.set(key, list);
}

/** The proxy's SSE output as the client parses it (the proxy writes one data line per event). */
export function sseFrames(out: string): Array<{ event?: string; data: string }> {
  const frames: Array<{ event?: string; data: string }> = [];
  for (const block of out.split(/\r?\n\r?\n/)) {
    if (block === '') continue;
    let event: string | undefined;
    const lines: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) lines.push(line.slice(6));
      else throw new Error(`unexpected line in the proxy's output: ${JSON.stringify(line)}`);
    }
    frames.push(event ? { event, data: lines.join('\n') } : { data: lines.join('\n') });
  }
  return frames;
}

const jsonFrames = (out: string) =>
  sseFrames(out)
    .filter((f) => f.data !== '[DONE]')
    .map((f) => ({ event: f.event, json: JSON.parse(f.data) as Json }));

// -------------------------------------------------------------------------------------------------------
// OpenAI chat completions (also the gateway's format)

/** `refusals`: a choice may stream its text as a refusal (structured outputs) instead of content. */
export function openAiChunks(rng: Rng, plan: Plan, refusals = true): { chunks: Json[]; expected: Expected } {
  const expected: Expected = new Map();
  const perChoice: Json[][] = plan.texts.map((text, choice) => {
    const field = refusals && chance(rng, 0.1) ? 'refusal' : 'content';
    expected.set(`${field === 'refusal' ? 'r' : 'c'}${choice}`, { text: text.expected });
    const seq: Json[] = [{ index: choice, delta: { role: 'assistant', content: '' }, finish_reason: null }];
    for (const piece of textDeltas(rng, text))
      seq.push({ index: choice, delta: { [field]: piece }, finish_reason: null });
    const tools = choice === 0 ? plan.tools : [];
    const toolSeqs = tools.map((tool, k) => {
      expected.set(`a${choice}:${k}`, { json: tool.args.expected });
      const frags = argDeltas(rng, tool.args);
      const first = chance(rng, 0.5) ? frags.shift()! : '';
      const calls: Json[] = [];
      calls.push({
        index: choice,
        delta: {
          tool_calls: [
            { index: k, id: tool.id, type: 'function', function: { name: tool.name, arguments: first } },
          ],
        },
        finish_reason: null,
      });
      for (const f of frags)
        calls.push({
          index: choice,
          delta: { tool_calls: [{ index: k, function: { arguments: f } }] },
          finish_reason: null,
        });
      return calls;
    });
    // Parallel tool calls, one after the other or with their argument fragments interleaved.
    seq.push(...(chance(rng, 0.3) ? interleave(rng, toolSeqs) : toolSeqs.flat()));
    if (chance(rng, 0.85)) {
      const reason = tools.length > 0 ? 'tool_calls' : 'stop';
      const last = seq[seq.length - 1]!;
      if (seq.length > 1 && chance(rng, 0.3)) last['finish_reason'] = reason;
      else seq.push({ index: choice, delta: {}, finish_reason: reason });
    }
    return seq;
  });
  const chunks = interleave(rng, perChoice).map((choice) => ({
    id: 'chatcmpl-fuzz',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [choice],
  }));
  if (chance(rng, 0.5))
    chunks.push({
      id: 'chatcmpl-fuzz',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    } as (typeof chunks)[number] & { usage: Json });
  return { chunks, expected };
}

/** Reads OpenAI chat chunks (parsed) into the client's fields. */
export function readOpenAiChunks(chunks: Json[], fields: Map<string, string[]>): void {
  for (const c of chunks) {
    for (const choice of (c['choices'] as Json[] | undefined) ?? []) {
      const delta = (choice['delta'] ?? {}) as Json;
      push(fields, `c${String(choice['index'])}`, delta['content']);
      push(fields, `r${String(choice['index'])}`, delta['refusal']);
      for (const tc of (delta['tool_calls'] as Json[] | undefined) ?? []) {
        push(
          fields,
          `a${String(choice['index'])}:${String(tc['index'])}`,
          (tc['function'] as Json | undefined)?.['arguments'],
        );
      }
    }
  }
}

const openaiChat: StreamFormat = {
  name: 'OpenAI chat chunks',
  op: 'openai-chat',
  sse: true,
  crlf: '\n',
  build(rng, plan) {
    const { chunks, expected } = openAiChunks(rng, plan);
    const events = chunks.map((c) => data(c));
    if (chance(rng, 0.9)) events.push({ data: '[DONE]' });
    return { events, expected, whole: [] };
  },
  read(out) {
    const fields = new Map<string, string[]>();
    readOpenAiChunks(
      jsonFrames(out).map((f) => f.json),
      fields,
    );
    return { fields, whole: [] };
  },
};

// -------------------------------------------------------------------------------------------------------
// OpenAI Responses

const responses: StreamFormat = {
  name: 'OpenAI Responses',
  op: 'openai-responses',
  sse: true,
  crlf: '\n',
  build(rng, plan) {
    const expected: Expected = new Map();
    const whole: Array<[string, unknown]> = [];
    const events: UpstreamEvent[] = [];
    let seq = 0;
    const ev = (o: Json) => events.push(data({ ...o, sequence_number: seq++ }, o['type'] as string));
    ev({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } });
    const items: Array<{ kind: 'text'; t: GenText } | { kind: 'tool'; tool: Tool }> = [
      { kind: 'text', t: plan.texts[0]! },
      ...plan.tools.map((tool) => ({ kind: 'tool' as const, tool })),
      ...plan.texts.slice(1).map((t) => ({ kind: 'text' as const, t })),
    ];
    const output: Json[] = [];
    items.forEach((item, i) => {
      if (item.kind === 'text') {
        const id = `msg_${i}`;
        expected.set(`t${i}`, { text: item.t.expected });
        ev({
          type: 'response.output_item.added',
          output_index: i,
          item: { id, type: 'message', role: 'assistant', content: [] },
        });
        ev({
          type: 'response.content_part.added',
          item_id: id,
          output_index: i,
          content_index: 0,
          part: { type: 'output_text', text: '' },
        });
        let annotations = 0;
        for (const d of textDeltas(rng, item.t)) {
          ev({
            type: 'response.output_text.delta',
            item_id: id,
            output_index: i,
            content_index: 0,
            delta: d,
          });
          // Web search cites its sources while the text streams.
          if (chance(rng, 0.03))
            ev({
              type: 'response.output_text.annotation.added',
              item_id: id,
              output_index: i,
              content_index: 0,
              annotation_index: annotations++,
              annotation: {
                type: 'url_citation',
                url: 'https://example.org/',
                title: 'x',
                start_index: 0,
                end_index: 1,
              },
            });
        }
        ev({
          type: 'response.output_text.done',
          item_id: id,
          output_index: i,
          content_index: 0,
          text: item.t.model,
        });
        whole.push([`output_text.done ${i}`, item.t.expected]);
        const done = {
          id,
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: item.t.model }],
        };
        ev({ type: 'response.output_item.done', output_index: i, item: done });
        output.push(done);
      } else {
        const id = `fc_${i}`;
        const { tool } = item;
        expected.set(`f${i}`, { json: tool.args.expected });
        ev({
          type: 'response.output_item.added',
          output_index: i,
          item: { id, type: 'function_call', call_id: tool.id, name: tool.name, arguments: '' },
        });
        for (const d of argDeltas(rng, tool.args))
          ev({ type: 'response.function_call_arguments.delta', item_id: id, output_index: i, delta: d });
        ev({
          type: 'response.function_call_arguments.done',
          item_id: id,
          output_index: i,
          arguments: tool.args.model,
        });
        whole.push([`function_call_arguments.done ${i}`, tool.args.expected]);
        const done = {
          id,
          type: 'function_call',
          call_id: tool.id,
          name: tool.name,
          arguments: tool.args.model,
        };
        ev({ type: 'response.output_item.done', output_index: i, item: done });
        output.push(done);
      }
    });
    if (chance(rng, 0.9))
      ev({
        type: 'response.completed',
        response: { id: 'resp_1', status: 'completed', output, usage: { input_tokens: 1, output_tokens: 2 } },
      });
    return { events, expected, whole };
  },
  read(out) {
    const fields = new Map<string, string[]>();
    const whole: ClientView['whole'] = [];
    for (const { event, json } of jsonFrames(out)) {
      if (event !== json['type']) throw new Error(`event name ${event} for a ${String(json['type'])} event`);
      const i = String(json['output_index']);
      switch (json['type']) {
        case 'response.output_text.delta':
          push(fields, `t${i}`, json['delta']);
          break;
        case 'response.function_call_arguments.delta':
          push(fields, `f${i}`, json['delta']);
          break;
        case 'response.output_text.done':
          whole.push([`output_text.done ${i}`, json['text'], undefined]);
          break;
        case 'response.function_call_arguments.done':
          whole.push([
            `function_call_arguments.done ${i}`,
            JSON.parse(json['arguments'] as string),
            undefined,
          ]);
          break;
      }
    }
    return { fields, whole };
  },
};

// -------------------------------------------------------------------------------------------------------
// Anthropic Messages

const anthropic: StreamFormat = {
  name: 'Anthropic Messages',
  op: 'anthropic-messages',
  sse: true,
  crlf: '\n',
  build(rng, plan) {
    const expected: Expected = new Map();
    const events: UpstreamEvent[] = [];
    const ev = (o: Json) => {
      events.push(data(o, o['type'] as string));
      // Anthropic: "event streams may also include any number of ping events".
      if (chance(rng, 0.04)) events.push(data({ type: 'ping' }, 'ping'));
    };
    ev({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    });
    const blocks: Array<{ t: GenText } | { tool: Tool }> = [
      { t: plan.texts[0]! },
      ...plan.tools.map((tool) => ({ tool })),
      ...plan.texts.slice(1).map((t) => ({ t })),
    ];
    blocks.forEach((b, index) => {
      if ('t' in b) {
        expected.set(`b${index}`, { text: b.t.expected });
        ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const d of textDeltas(rng, b.t))
          ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: d } });
      } else {
        expected.set(`b${index}`, { json: b.tool.args.expected });
        ev({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: b.tool.id, name: b.tool.name, input: {} },
        });
        for (const d of argDeltas(rng, b.tool.args))
          ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: d } });
      }
      ev({ type: 'content_block_stop', index });
    });
    ev({
      type: 'message_delta',
      delta: { stop_reason: plan.tools.length ? 'tool_use' : 'end_turn' },
      usage: { output_tokens: 9 },
    });
    ev({ type: 'message_stop' });
    return { events, expected, whole: [] };
  },
  read(out) {
    const fields = new Map<string, string[]>();
    for (const { event, json } of jsonFrames(out)) {
      if (event !== json['type']) throw new Error(`event name ${event} for a ${String(json['type'])} event`);
      if (json['type'] !== 'content_block_delta') continue;
      const delta = json['delta'] as Json;
      push(
        fields,
        `b${String(json['index'])}`,
        delta['type'] === 'text_delta' ? delta['text'] : delta['partial_json'],
      );
    }
    return { fields, whole: [] };
  },
};

// -------------------------------------------------------------------------------------------------------
// Gemini (SSE and the streamed JSON array)

function geminiBuild(
  rng: Rng,
  plan: Plan,
): { chunks: Json[]; expected: Expected; whole: Array<[string, unknown]> } {
  const expected: Expected = new Map();
  const whole: Array<[string, unknown]> = [];
  const finishes = chance(rng, 0.85);
  const perCandidate = plan.texts.map((t, index) => {
    expected.set(`g${index}`, { text: t.expected });
    const deltas = textDeltas(rng, t);
    const seq: Json[] = [];
    for (let i = 0; i < deltas.length; ) {
      // A chunk may carry more than one text part.
      const n = chance(rng, 0.2) ? 2 : 1;
      const parts = deltas.slice(i, i + n).map((text) => ({ text }));
      i += n;
      seq.push({ content: { role: 'model', parts }, index });
    }
    const tools = index === 0 ? plan.tools : [];
    if (finishes || tools.length > 0) {
      const parts = tools.map((tool) => ({
        functionCall: { name: tool.name, args: JSON.parse(tool.args.model) },
      }));
      for (const [k, tool] of tools.entries()) whole.push([`functionCall ${index}:${k}`, tool.args.expected]);
      const last: Json = { content: { role: 'model', parts }, index };
      if (finishes) last['finishReason'] = 'STOP';
      seq.push(last);
    }
    return seq;
  });
  const chunks = interleave(rng, perCandidate).map((candidate) => ({
    candidates: [candidate],
    modelVersion: 'gemini-2.0-flash',
  })) as Json[];
  if (finishes && chunks.length > 0)
    chunks[chunks.length - 1]!['usageMetadata'] = { promptTokenCount: 3, candidatesTokenCount: 7 };
  return { chunks, expected, whole };
}

function geminiRead(elements: Json[]): ClientView {
  const fields = new Map<string, string[]>();
  const whole: ClientView['whole'] = [];
  for (const e of elements) {
    for (const c of (e['candidates'] as Json[] | undefined) ?? []) {
      const parts = ((c['content'] as Json | undefined)?.['parts'] as Json[] | undefined) ?? [];
      let k = 0;
      for (const p of parts) {
        push(fields, `g${String(c['index'])}`, p['text']);
        if (p['functionCall'])
          whole.push([
            `functionCall ${String(c['index'])}:${k++}`,
            (p['functionCall'] as Json)['args'],
            undefined,
          ]);
      }
    }
  }
  return { fields, whole };
}

const geminiSse: StreamFormat = {
  name: 'Gemini SSE',
  op: 'gemini-generate',
  sse: true,
  crlf: '\r\n',
  build(rng, plan) {
    const { chunks, expected, whole } = geminiBuild(rng, plan);
    return { events: chunks.map((c) => data(c)), expected, whole };
  },
  read(out) {
    return geminiRead(jsonFrames(out).map((f) => f.json));
  },
};

const geminiArray: StreamFormat = {
  name: 'Gemini streamed JSON array',
  op: 'gemini-generate',
  sse: false,
  crlf: '\r\n',
  build(rng, plan) {
    const { chunks, expected, whole } = geminiBuild(rng, plan);
    // The array's text is built by the caller from these (one element each).
    return {
      events: chunks.map((c) => ({ data: JSON.stringify(c, null, chance(rng, 0.5) ? 2 : undefined) })),
      expected,
      whole,
    };
  },
  read(out) {
    return geminiRead(JSON.parse(out) as Json[]);
  },
};

// -------------------------------------------------------------------------------------------------------
// Cohere v2 chat

const cohere: StreamFormat = {
  name: 'Cohere v2',
  op: 'cohere-chat',
  sse: true,
  crlf: '\n',
  build(rng, plan) {
    const expected: Expected = new Map();
    const events: UpstreamEvent[] = [];
    const ev = (o: Json) => events.push(data(o, o['type'] as string));
    ev({
      id: 'c1',
      type: 'message-start',
      delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
    });
    const plan2 = plan.texts[1];
    if (plan2 && plan.tools.length > 0) {
      expected.set('p', { text: plan2.expected });
      for (const d of textDeltas(rng, plan2))
        ev({ type: 'tool-plan-delta', delta: { message: { tool_plan: d } } });
    }
    plan.tools.forEach((tool, index) => {
      expected.set(`a${index}`, { json: tool.args.expected });
      ev({
        type: 'tool-call-start',
        index,
        delta: {
          message: {
            tool_calls: { id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } },
          },
        },
      });
      for (const d of argDeltas(rng, tool.args))
        ev({
          type: 'tool-call-delta',
          index,
          delta: { message: { tool_calls: { function: { arguments: d } } } },
        });
      ev({ type: 'tool-call-end', index });
    });
    const text = plan.texts[0]!;
    expected.set('c0', { text: text.expected });
    ev({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } });
    for (const d of textDeltas(rng, text)) {
      ev({ type: 'content-delta', index: 0, delta: { message: { content: { text: d } } } });
      // With documents, citations stream along with the text.
      if (chance(rng, 0.03)) {
        ev({
          type: 'citation-start',
          index: 0,
          delta: { message: { citations: { start: 0, end: 1, text: 'x', sources: [] } } },
        });
        ev({ type: 'citation-end', index: 0 });
      }
    }
    ev({ type: 'content-end', index: 0 });
    ev({
      type: 'message-end',
      delta: { finish_reason: 'COMPLETE', usage: { tokens: { input_tokens: 1, output_tokens: 2 } } },
    });
    if (chance(rng, 0.5)) events.push({ data: '[DONE]' });
    return { events, expected, whole: [] };
  },
  read(out) {
    const fields = new Map<string, string[]>();
    for (const { event, json } of jsonFrames(out)) {
      if (event !== json['type']) throw new Error(`event name ${event} for a ${String(json['type'])} event`);
      const message = ((json['delta'] as Json | undefined)?.['message'] ?? {}) as Json;
      if (json['type'] === 'content-delta')
        push(fields, `c${String(json['index'])}`, (message['content'] as Json)['text']);
      if (json['type'] === 'tool-plan-delta') push(fields, 'p', message['tool_plan']);
      if (json['type'] === 'tool-call-delta')
        push(
          fields,
          `a${String(json['index'])}`,
          ((message['tool_calls'] as Json)['function'] as Json)['arguments'],
        );
    }
    return { fields, whole: [] };
  },
};

// -------------------------------------------------------------------------------------------------------
// The properties

/** Every property the client relies on; returns what is wrong, or null. */
export function problems(
  view: ClientView,
  expected: Expected,
  whole: Array<[string, unknown]>,
  vault: Vault,
): string | null {
  for (const [key, want] of expected) {
    const pieces = view.fields.get(key) ?? [];
    const got = pieces.join('');
    if ('text' in want) {
      if (got !== want.text)
        return `field ${key}: got ${JSON.stringify(got)}, want ${JSON.stringify(want.text)}`;
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(got);
      } catch {
        return `field ${key}: not JSON after reassembly: ${JSON.stringify(got)}`;
      }
      try {
        assert.deepEqual(parsed, want.json);
      } catch {
        return `field ${key}: got ${got}, want ${JSON.stringify(want.json)}`;
      }
    }
    const partial = partialToken(pieces, vault.tokens);
    if (partial) return `field ${key}: a token released in part: ${JSON.stringify(partial)}`;
  }
  for (const [key, pieces] of view.fields)
    if (!expected.has(key) && pieces.join('') !== '') return `unexpected field ${key}: ${pieces.join('')}`;
  for (const [what, want] of whole) {
    const got = view.whole.find((w) => w[0] === what);
    if (!got) return `${what}: missing`;
    try {
      assert.deepEqual(got[1], want);
    } catch {
      return `${what}: got ${JSON.stringify(got[1])}, want ${JSON.stringify(want)}`;
    }
  }
  return null;
}

export const STREAM_FORMATS: StreamFormat[] = [
  openaiChat,
  responses,
  anthropic,
  geminiSse,
  geminiArray,
  cohere,
];

// -------------------------------------------------------------------------------------------------------
// Upstream bytes

/** The upstream's body: SSE with any line ending, comments and multi-line data, or a JSON array. */
export function upstreamText(rng: Rng, format: StreamFormat, events: UpstreamEvent[]): string {
  if (!format.sse) {
    const sep = pick(rng, [',', ',\r\n', '\r\n,\r\n', ',\n']);
    return `[${events.map((e) => e.data).join(sep)}]`;
  }
  const eol =
    format.op === 'gemini-generate'
      ? pick(rng, ['\r\n', '\r\n', '\n'])
      : pick(rng, ['\n', '\n', '\r\n', '\r']);
  let out = '';
  for (const e of events) {
    if (chance(rng, 0.05)) out += `: keep-alive${eol}${eol}`;
    if (e.event) out += `event: ${e.event}${eol}`;
    const space = chance(rng, 0.8) ? ' ' : '';
    if (chance(rng, 0.1) && e.data.startsWith('{')) {
      // The same JSON over several data lines (joined by "\n" again by the reader).
      for (const line of JSON.stringify(JSON.parse(e.data), null, 1).split('\n'))
        out += `data:${space}${line}${eol}`;
    } else out += `data:${space}${e.data}${eol}`;
    out += eol;
  }
  return out;
}
