// The network proxy's other inspected operations for the fake provider server, written from the providers'
// public API references: OpenAI legacy completions (whole and streamed), Cohere v1 chat (whole and
// newline-delimited stream), and whole answers of the operations that do not stream (counts, embeddings,
// moderation, rerank, Mistral conversations) that echo the request's text where the real one does.
import type { FakeReply, FakeWire, Frame } from './provider-wire.js';
import { pieces } from './provider-wire.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const errorBody = (status: number, message: string) => ({ error: { message, type: 'error', code: status } });

/** OpenAI /v1/completions: the prompt (its first string) echoed as the choice's text. */
export const completionsWire: FakeWire = {
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
  lastUserText: (body) => {
    const p = obj(body)['prompt'];
    return typeof p === 'string' ? p : String(arr(p)[0] ?? '');
  },
  errorBody,
  response: (r) => ({
    id: `cmpl-${r.id}`,
    object: 'text_completion',
    created: 1,
    model: r.model,
    choices: [{ text: r.text, index: 0, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: r.usage.prompt, completion_tokens: r.usage.completion, total_tokens: 18 },
  }),
  sse: () => true,
  streamFrames(r) {
    const chunk = (text: string, finish: string | null) =>
      `data: ${JSON.stringify({ id: `cmpl-${r.id}`, object: 'text_completion', created: 1, model: r.model, choices: [{ text, index: 0, logprobs: null, finish_reason: finish }] })}\n\n`;
    const frames: Frame[] = pieces(r.text, r.chunkSize).map((p) => ({ text: chunk(p, null), content: true }));
    frames.push({ text: chunk('', 'stop'), content: false }, { text: 'data: [DONE]\n\n', content: false });
    return frames;
  },
  streamError: (_sse, message) => `data: ${JSON.stringify(errorBody(500, message))}\n\n`,
};

/** Cohere v1 /v1/chat: `message` echoed as `text`; streamed as one JSON object a line. */
export const cohereV1ChatWire: FakeWire = {
  isStream: (_url, body) => obj(body)['stream'] === true,
  model: (_url, body) => String(obj(body)['model'] ?? 'command'),
  lastUserText: (body) => String(obj(body)['message'] ?? ''),
  errorBody: (_status, message) => ({ message }),
  response: (r) => ({
    response_id: `r${r.id}`,
    generation_id: `g${r.id}`,
    text: r.text,
    finish_reason: 'COMPLETE',
  }),
  sse: () => false,
  streamFrames(r) {
    const line = (e: Obj) => `${JSON.stringify({ is_finished: false, ...e })}\n`;
    const frames: Frame[] = [
      { text: line({ event_type: 'stream-start', generation_id: `g${r.id}` }), content: false },
    ];
    for (const p of pieces(r.text, r.chunkSize))
      frames.push({ text: line({ event_type: 'text-generation', text: p }), content: true });
    frames.push({
      text: `${JSON.stringify({ is_finished: true, event_type: 'stream-end', finish_reason: 'COMPLETE', response: { text: r.text, generation_id: `g${r.id}` } })}\n`,
      content: false,
    });
    return frames;
  },
  streamError: (_sse, message) =>
    `${JSON.stringify({ is_finished: true, event_type: 'stream-end', finish_reason: 'ERROR', response: { text: message } })}\n`,
};

/** A whole answer per operation: no stream, the request's text echoed where the real answer carries it. */
function wholeWire(answer: (body: Obj) => unknown): FakeWire {
  return {
    isStream: () => false,
    model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
    lastUserText: () => '',
    errorBody,
    response: (r: FakeReply) => answer(obj(r.body)),
    sse: () => true,
    streamFrames: () => [],
    streamError: () => '',
  };
}

export const countWire = wholeWire(() => ({ input_tokens: 12, totalTokens: 12 }));
export const moderationsWire = wholeWire(() => ({
  id: 'modr-1',
  model: 'omni-moderation-latest',
  results: [{ flagged: false, categories: {}, category_scores: {} }],
}));
/** Cohere embed (v1 floats) echoes `texts`; Gemini embedContent answers `embedding`, batchEmbedContents `embeddings`. */
export const embedWire = wholeWire((b) => ({
  id: 'e1',
  response_type: 'embeddings_floats',
  texts: arr(b['texts']),
  embeddings: arr(b['texts']).map(() => [0.1, 0.2]),
  embedding: { values: [0.1, 0.2] },
  meta: { api_version: { version: '1' } },
}));
/** Cohere rerank: the documents given back in order when `return_documents` is set. */
export const rerankWire = wholeWire((b) => ({
  id: 'rr1',
  results: arr(b['documents']).map((d, index) => ({
    index,
    relevance_score: 1 - index / 10,
    ...(b['return_documents'] === true
      ? { document: { text: typeof d === 'string' ? d : String(obj(d)['text'] ?? '') } }
      : {}),
  })),
  meta: { api_version: { version: '2' } },
}));
/** Mistral conversations: the text of `inputs` (a string) echoed as the output message. */
export const conversationsWire = wholeWire((b) => ({
  object: 'conversation.response',
  conversation_id: 'conv_1',
  outputs: [
    {
      object: 'entry',
      type: 'message.output',
      id: 'msg_1',
      created_at: '2026-01-01T00:00:00Z',
      completed_at: '2026-01-01T00:00:00Z',
      role: 'assistant',
      model: 'mistral-medium',
      content: typeof b['inputs'] === 'string' ? b['inputs'] : '',
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
}));
