// OpenAI's Responses API and embeddings for the fake provider server, written from OpenAI's public API
// reference: request reading, whole responses, the Responses event stream, errors.
import { createHash } from 'node:crypto';
import type { FakeReply, FakeWire, Frame } from './provider-wire.js';
import { pieces } from './provider-wire.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const openAiError = (status: number, message: string) => ({
  error: {
    message,
    type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
    param: null,
    code: status === 429 ? 'rate_limit_exceeded' : null,
  },
});

/** The text of a Responses input item's content: a string or input_text parts. */
function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map(obj)
    .filter((p) => p['type'] === 'input_text' || p['type'] === 'output_text')
    .map((p) => String(p['text'] ?? ''))
    .join('');
}

function responsesUserText(body: unknown): string {
  const input = obj(body)['input'];
  if (typeof input === 'string') return input;
  const items = arr(input).map(obj);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as Obj;
    if (item['role'] === 'user') return itemText(item['content']);
  }
  return '';
}

const event = (seq: { n: number }, type: string, data: Obj): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq.n++, ...data })}\n\n`;

function responseObject(r: FakeReply, status: 'in_progress' | 'completed', output: unknown[]): Obj {
  return {
    id: `resp_fake_${r.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: obj(r.body)['instructions'] ?? null,
    model: r.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage:
      status === 'completed'
        ? {
            input_tokens: r.usage.prompt,
            output_tokens: r.usage.completion,
            total_tokens: r.usage.prompt + r.usage.completion,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          }
        : null,
  };
}

function outputItems(r: FakeReply): Obj[] {
  const items: Obj[] = [];
  if (r.text || r.toolCalls.length === 0)
    items.push({
      type: 'message',
      id: `msg_fake_${r.id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: r.text, annotations: [] }],
    });
  r.toolCalls.forEach((c, i) => {
    items.push({
      type: 'function_call',
      id: `fc_fake_${r.id}_${i}`,
      call_id: c.id ?? `call_fake_${i}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
      status: 'completed',
    });
  });
  return items;
}

export const responsesWire: FakeWire = {
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: responsesUserText,
  errorBody: openAiError,
  response: (r) => responseObject(r, 'completed', outputItems(r)),
  sse: () => true,
  streamFrames(r) {
    const seq = { n: 0 };
    const frames: Frame[] = [];
    const push = (type: string, data: Obj, content = false) =>
      frames.push({ text: event(seq, type, data), content });
    push('response.created', { response: responseObject(r, 'in_progress', []) });
    push('response.in_progress', { response: responseObject(r, 'in_progress', []) });
    const done = outputItems(r);
    done.forEach((item, output_index) => {
      const id = String(item['id']);
      if (item['type'] === 'message') {
        push('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        });
        const part = { type: 'output_text', text: '', annotations: [] };
        push('response.content_part.added', { item_id: id, output_index, content_index: 0, part });
        for (const delta of pieces(r.text, r.chunkSize))
          push('response.output_text.delta', { item_id: id, output_index, content_index: 0, delta }, true);
        push('response.output_text.done', { item_id: id, output_index, content_index: 0, text: r.text });
        push('response.content_part.done', {
          item_id: id,
          output_index,
          content_index: 0,
          part: { ...part, text: r.text },
        });
      } else {
        push('response.output_item.added', {
          output_index,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        const args = String(item['arguments']);
        const mid = Math.floor(args.length / 2);
        const deltas =
          r.argChunkSize > 0 ? pieces(args, r.argChunkSize) : [args.slice(0, mid), args.slice(mid)];
        for (const delta of deltas)
          push('response.function_call_arguments.delta', { item_id: id, output_index, delta }, true);
        push('response.function_call_arguments.done', { item_id: id, output_index, arguments: args });
      }
      push('response.output_item.done', { output_index, item });
    });
    push('response.completed', { response: responseObject(r, 'completed', done) });
    return frames;
  },
  streamError: (_sse, message) =>
    `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'server_error', message, param: null, sequence_number: 0 })}\n\n`,
};

/** A deterministic 8-dimension vector of a text (what it means does not matter to the tests). */
function vectorOf(text: string): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) => (digest.readUInt16BE(i * 2) / 65535) * 2 - 1);
}

export const embeddingsWire: FakeWire = {
  isStream: () => false,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: (body) => {
    const input = obj(body)['input'];
    return typeof input === 'string'
      ? input
      : arr(input)
          .filter((v) => typeof v === 'string')
          .join('\n');
  },
  errorBody: openAiError,
  response(r) {
    const body = obj(r.body);
    const input = body['input'];
    const texts = typeof input === 'string' ? [input] : arr(input).map((v) => String(v));
    // The SDKs ask for base64 (little-endian float32) unless told otherwise.
    const base64 = body['encoding_format'] === 'base64';
    return {
      object: 'list',
      model: r.model,
      data: texts.map((text, index) => {
        const v = vectorOf(text);
        return {
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v,
        };
      }),
      usage: { prompt_tokens: r.usage.prompt, total_tokens: r.usage.prompt },
    };
  },
  sse: () => false,
  streamFrames: () => [],
  streamError: () => '',
};

/** The fake's embedding of a text, for tests that check which text the upstream embedded. */
export const fakeEmbedding = vectorOf;
