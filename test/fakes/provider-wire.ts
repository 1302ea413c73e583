// Per-provider wire formats of the fake provider server: request reading, responses, stream frames, errors.
// Written from the providers' public API references; the adapters under test must not share this code.

export type WireName = 'openai' | 'azure' | 'anthropic' | 'google' | 'cohere';

export interface FakeReply {
  id: string;
  model: string;
  text: string;
  toolCalls: Array<{ name: string; arguments: Record<string, unknown>; id?: string }>;
  chunkSize: number;
  usage: { prompt: number; completion: number };
  provider: string;
  body: unknown;
  /** Characters per streamed tool-call argument delta; 0: two halves (Responses). */
  argChunkSize: number;
  /** OpenAI formats: the finish reason instead of stop / tool_calls ('length': the answer hit its limit). */
  finishReason?: string;
  /** The request's method, path and the server's own origin (for URLs an answer names). */
  method: string;
  path: string;
  origin: string;
  /** What this server keeps between requests (batches, conversation items); cleared by reset(). */
  store: Map<string, unknown>;
}

/** One write on the wire; `content` frames count for errorAfterChunks / dropAfterChunks. */
export interface Frame {
  text: string;
  content: boolean;
}

export interface FakeWire {
  isStream(url: URL, body: unknown): boolean;
  model(url: URL, body: unknown): string;
  lastUserText(body: unknown): string;
  errorBody(status: number, message: string): unknown;
  response(reply: FakeReply): unknown;
  /** A whole answer that is not one JSON value (JSONL results): its type and text, used over `response`. */
  raw?(reply: FakeReply): { type: string; text: string } | undefined;
  /** False only for Gemini streams requested without alt=sse (a streamed JSON array). */
  sse(url: URL): boolean;
  streamFrames(reply: FakeReply, sse: boolean): Frame[];
  streamError(sse: boolean, message: string): string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((p) => obj(p))
    .filter((p) => p['type'] === 'text' || (p['type'] === undefined && typeof p['text'] === 'string'))
    .map((p) => String(p['text'] ?? ''))
    .join('');
}

function lastUser(messages: unknown[], role: string, read: (m: Obj) => string): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = obj(messages[i]);
    if (m['role'] !== role) continue;
    const text = read(m);
    if (text) return text;
  }
  return '';
}

/** Splits by code points so a surrogate pair is never cut (the adapters are not what is tested there). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function argFragments(args: Record<string, unknown>): string[] {
  const json = JSON.stringify(args);
  const mid = Math.floor(json.length / 2);
  return [json.slice(0, mid), json.slice(mid)];
}

const sseData = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const sseEvent = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const created = () => Math.floor(Date.now() / 1000);

const openAiWire = (azure: boolean): FakeWire => ({
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: (body) => lastUser(arr(obj(body)['messages']), 'user', (m) => textOf(m['content'])),
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: status === 429 ? 'rate_limit_exceeded' : null,
    },
  }),
  response: (r) => ({
    id: `chatcmpl-fake-${r.id}`,
    object: 'chat.completion',
    created: created(),
    model: r.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: r.toolCalls.length > 0 && !r.text ? null : r.text,
          refusal: null,
          ...(r.toolCalls.length > 0
            ? {
                tool_calls: r.toolCalls.map((c, i) => ({
                  id: c.id ?? `call_fake_${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: r.finishReason ?? (r.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: r.usage.prompt,
      completion_tokens: r.usage.completion,
      total_tokens: r.usage.prompt + r.usage.completion,
    },
    system_fingerprint: 'fp_fake',
  }),
  sse: () => true,
  streamFrames(r) {
    const base = {
      id: `chatcmpl-fake-${r.id}`,
      object: 'chat.completion.chunk',
      created: created(),
      model: r.model,
    };
    const frame = (delta: Obj, finish: string | null = null, extra: Obj = {}) =>
      sseData({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
    const frames: Frame[] = [];
    // Azure opens with a filter-results chunk that has no choices.
    if (azure) {
      frames.push({
        text: sseData({
          ...base,
          choices: [],
          prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
        }),
        content: false,
      });
    }
    frames.push({ text: frame({ role: 'assistant', content: '' }), content: false });
    for (const p of pieces(r.text, r.chunkSize)) frames.push({ text: frame({ content: p }), content: true });
    r.toolCalls.forEach((c, i) => {
      frames.push({
        text: frame({
          tool_calls: [
            {
              index: i,
              id: c.id ?? `call_fake_${i}`,
              type: 'function',
              function: { name: c.name, arguments: '' },
            },
          ],
        }),
        content: true,
      });
      for (const f of argFragments(c.arguments)) {
        frames.push({
          text: frame({ tool_calls: [{ index: i, function: { arguments: f } }] }),
          content: true,
        });
      }
    });
    const usage = {
      prompt_tokens: r.usage.prompt,
      completion_tokens: r.usage.completion,
      total_tokens: r.usage.prompt + r.usage.completion,
    };
    const finish = r.finishReason ?? (r.toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const includeUsage = obj(obj(r.body)['stream_options'])['include_usage'] === true;
    // Mistral puts usage on the finishing chunk unasked; OpenAI sends a separate chunk only when asked.
    if (r.provider === 'mistral') frames.push({ text: frame({}, finish, { usage }), content: false });
    else frames.push({ text: frame({}, finish), content: false });
    if (includeUsage && r.provider !== 'mistral') {
      frames.push({ text: sseData({ ...base, choices: [], usage }), content: false });
    }
    frames.push({ text: 'data: [DONE]\n\n', content: false });
    return frames;
  },
  streamError: (_sse, message) =>
    sseData({ error: { message, type: 'server_error', param: null, code: null } }),
});

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const anthropicWire: FakeWire = {
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: (body) => lastUser(arr(obj(body)['messages']), 'user', (m) => textOf(m['content'])),
  errorBody: (status, message) => ({
    type: 'error',
    error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message },
  }),
  response: (r) => ({
    id: `msg_fake_${r.id}`,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [
      ...(r.text ? [{ type: 'text', text: r.text }] : []),
      ...r.toolCalls.map((c, i) => ({
        type: 'tool_use',
        id: c.id ?? `toolu_fake_${i}`,
        name: c.name,
        input: c.arguments,
      })),
    ],
    stop_reason: r.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: r.usage.prompt, output_tokens: r.usage.completion },
  }),
  sse: () => true,
  streamFrames(r) {
    const frames: Frame[] = [
      {
        text: sseEvent('message_start', {
          type: 'message_start',
          message: {
            id: `msg_fake_${r.id}`,
            type: 'message',
            role: 'assistant',
            model: r.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: r.usage.prompt, output_tokens: 1 },
          },
        }),
        content: false,
      },
      { text: sseEvent('ping', { type: 'ping' }), content: false },
    ];
    let block = 0;
    if (r.text) {
      frames.push({
        text: sseEvent('content_block_start', {
          type: 'content_block_start',
          index: block,
          content_block: { type: 'text', text: '' },
        }),
        content: false,
      });
      for (const p of pieces(r.text, r.chunkSize)) {
        frames.push({
          text: sseEvent('content_block_delta', {
            type: 'content_block_delta',
            index: block,
            delta: { type: 'text_delta', text: p },
          }),
          content: true,
        });
      }
      frames.push({
        text: sseEvent('content_block_stop', { type: 'content_block_stop', index: block }),
        content: false,
      });
      block++;
    }
    r.toolCalls.forEach((c, i) => {
      frames.push({
        text: sseEvent('content_block_start', {
          type: 'content_block_start',
          index: block,
          content_block: { type: 'tool_use', id: c.id ?? `toolu_fake_${i}`, name: c.name, input: {} },
        }),
        content: true,
      });
      for (const f of argFragments(c.arguments)) {
        frames.push({
          text: sseEvent('content_block_delta', {
            type: 'content_block_delta',
            index: block,
            delta: { type: 'input_json_delta', partial_json: f },
          }),
          content: true,
        });
      }
      frames.push({
        text: sseEvent('content_block_stop', { type: 'content_block_stop', index: block }),
        content: false,
      });
      block++;
    });
    frames.push({
      text: sseEvent('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: r.toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: r.usage.completion },
      }),
      content: false,
    });
    frames.push({ text: sseEvent('message_stop', { type: 'message_stop' }), content: false });
    return frames;
  },
  streamError: (_sse, message) =>
    sseEvent('error', { type: 'error', error: { type: 'overloaded_error', message } }),
};

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const googleWire: FakeWire = {
  isStream: (url) => url.pathname.includes(':streamGenerateContent'),
  model: (url) => /\/models\/([^/:]+):/.exec(url.pathname)?.[1] ?? 'unknown',
  lastUserText: (body) =>
    lastUser(arr(obj(body)['contents']), 'user', (m) =>
      arr(m['parts'])
        .map((p) => obj(p)['text'])
        .filter((t) => typeof t === 'string')
        .join(''),
    ),
  errorBody: (status, message) => ({
    error: { code: status, message, status: GOOGLE_STATUS[status] ?? 'UNKNOWN' },
  }),
  response: (r) => ({
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            ...(r.text ? [{ text: r.text }] : []),
            ...r.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.arguments } })),
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: r.usage.prompt,
      candidatesTokenCount: r.usage.completion,
      totalTokenCount: r.usage.prompt + r.usage.completion,
    },
    modelVersion: r.model,
    responseId: `fake-${r.id}`,
  }),
  sse: (url) => url.searchParams.get('alt') === 'sse',
  streamFrames(r, sse) {
    const bodies: Array<{ body: Obj; content: boolean }> = [];
    const wrap = (parts: Obj[], finish?: string, fullUsage = false): Obj => ({
      candidates: [
        { content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 },
      ],
      usageMetadata: fullUsage
        ? {
            promptTokenCount: r.usage.prompt,
            candidatesTokenCount: r.usage.completion,
            totalTokenCount: r.usage.prompt + r.usage.completion,
          }
        : { promptTokenCount: r.usage.prompt },
      modelVersion: r.model,
      responseId: `fake-${r.id}`,
    });
    for (const p of pieces(r.text, r.chunkSize)) bodies.push({ body: wrap([{ text: p }]), content: true });
    for (const c of r.toolCalls) {
      bodies.push({ body: wrap([{ functionCall: { name: c.name, args: c.arguments } }]), content: true });
    }
    // Gemini sends the finish reason and full usage on a last chunk (with empty text here).
    bodies.push({ body: wrap([{ text: '' }], 'STOP', true), content: false });
    if (sse)
      return bodies.map((b) => ({ text: `data: ${JSON.stringify(b.body)}\r\n\r\n`, content: b.content }));
    // Without alt=sse: one JSON array streamed element by element.
    return bodies.map((b, i) => ({
      text: (i === 0 ? '[' : ',\r\n') + JSON.stringify(b.body) + (i === bodies.length - 1 ? ']' : ''),
      content: b.content,
    }));
  },
  streamError: (sse, message) => {
    const body = JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } });
    return sse ? `data: ${body}\r\n\r\n` : `,\r\n${body}]`;
  },
};

const cohereWire: FakeWire = {
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: (body) => lastUser(arr(obj(body)['messages']), 'user', (m) => textOf(m['content'])),
  errorBody: (_status, message) => ({ id: 'fake-error', message }),
  response: (r) => ({
    id: `fake-${r.id}`,
    finish_reason: r.toolCalls.length > 0 ? 'TOOL_CALL' : 'COMPLETE',
    message: {
      role: 'assistant',
      ...(r.toolCalls.length > 0
        ? {
            tool_plan: r.text,
            tool_calls: r.toolCalls.map((c, i) => ({
              id: c.id ?? `fake-tool-${i}`,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : { content: [{ type: 'text', text: r.text }] }),
    },
    usage: {
      billed_units: { input_tokens: r.usage.prompt, output_tokens: r.usage.completion },
      tokens: { input_tokens: r.usage.prompt, output_tokens: r.usage.completion },
    },
  }),
  sse: () => true,
  streamFrames(r) {
    const ev = (type: string, data: Obj) => sseEvent(type, { type, ...data });
    const frames: Frame[] = [
      {
        text: ev('message-start', {
          id: `fake-${r.id}`,
          delta: {
            message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] },
          },
        }),
        content: false,
      },
    ];
    if (r.toolCalls.length === 0) {
      frames.push({
        text: ev('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
        content: false,
      });
      for (const p of pieces(r.text, r.chunkSize)) {
        frames.push({
          text: ev('content-delta', { index: 0, delta: { message: { content: { text: p } } } }),
          content: true,
        });
      }
      frames.push({ text: ev('content-end', { index: 0 }), content: false });
    } else {
      for (const p of pieces(r.text, r.chunkSize)) {
        frames.push({ text: ev('tool-plan-delta', { delta: { message: { tool_plan: p } } }), content: true });
      }
      r.toolCalls.forEach((c, i) => {
        frames.push({
          text: ev('tool-call-start', {
            index: i,
            delta: {
              message: {
                tool_calls: {
                  id: c.id ?? `fake-tool-${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: '' },
                },
              },
            },
          }),
          content: true,
        });
        for (const f of argFragments(c.arguments)) {
          frames.push({
            text: ev('tool-call-delta', {
              index: i,
              delta: { message: { tool_calls: { function: { arguments: f } } } },
            }),
            content: true,
          });
        }
        frames.push({ text: ev('tool-call-end', { index: i }), content: false });
      });
    }
    frames.push({
      text: ev('message-end', {
        delta: {
          finish_reason: r.toolCalls.length > 0 ? 'TOOL_CALL' : 'COMPLETE',
          usage: {
            billed_units: { input_tokens: r.usage.prompt, output_tokens: r.usage.completion },
            tokens: { input_tokens: r.usage.prompt, output_tokens: r.usage.completion },
          },
        },
      }),
      content: false,
    });
    return frames;
  },
  streamError: (_sse, message) =>
    sseEvent('message-end', { type: 'message-end', delta: { finish_reason: 'ERROR', error: message } }),
};

export function formatFor(name: WireName): FakeWire {
  switch (name) {
    case 'openai':
      return openAiWire(false);
    case 'azure':
      return openAiWire(true);
    case 'anthropic':
      return anthropicWire;
    case 'google':
      return googleWire;
    case 'cohere':
      return cohereWire;
  }
}
