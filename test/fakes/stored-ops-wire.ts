// The fake provider server's operations whose answers name what the provider stored, written from the
// providers' public API references: OpenAI conversations and their items, Anthropic Message Batches
// (create, retrieve, the JSONL results at `results_url`), Gemini batches (inline requests; the operation,
// then `batches/{id}` with the inlined responses). Whole answers only; the server's `store` keeps each
// conversation's items and each batch's requests until reset().
import { randomBytes } from 'node:crypto';
import type { FakeReply, FakeWire } from './provider-wire.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : arr(v)
        .map((p) => String(obj(p)['text'] ?? ''))
        .join('');

const errorBody = (status: number, message: string) => ({ error: { message, type: 'error', code: status } });

function storedWire(answer: (r: FakeReply) => unknown, raw?: FakeWire['raw']): FakeWire {
  return {
    isStream: () => false,
    model: (_url, body) => String(obj(body)['model'] ?? 'unknown'),
    lastUserText: () => '',
    errorBody,
    response: answer,
    ...(raw ? { raw } : {}),
    sse: () => true,
    streamFrames: () => [],
    streamError: () => '',
  };
}

/** A Responses input item as the conversation stores it: an id, a status, message text as parts. */
function storedItem(item: unknown, id: string): Obj {
  const i = obj(item);
  const type = String(i['type'] ?? 'message');
  if (type !== 'message') return { id, status: 'completed', ...i, type };
  const role = String(i['role'] ?? 'user');
  const part = role === 'assistant' ? 'output_text' : 'input_text';
  const content = typeof i['content'] === 'string' ? [{ type: part, text: i['content'] }] : arr(i['content']);
  return { id, type, status: 'completed', role, content };
}

/** An OpenAI list answer of items. */
const listOf = (data: Obj[]) => ({
  object: 'list',
  data,
  first_id: data[0]?.['id'] ?? null,
  last_id: data.at(-1)?.['id'] ?? null,
  has_more: false,
});

/**
 * OpenAI `/v1/conversations` (create, with `items` and `metadata`), `/{id}` (update `metadata`, retrieve),
 * `/{id}/items` (add: the added items; GET: every stored item).
 */
export const openaiConversationsWire = storedWire((r) => {
  const m = /\/conversations(?:\/([^/]+))?(\/items)?$/.exec(r.path);
  const id = m?.[1] ?? `conv_fake_${r.id}`;
  const key = `conversation:${id}`;
  const items = (r.store.get(key) as Obj[] | undefined) ?? [];
  const meta = (r.store.get(`${key}:metadata`) as Obj | undefined) ?? {};
  const body = obj(r.body);
  if (r.method === 'POST') {
    const added = arr(body['items']).map((item, n) => storedItem(item, `item_fake_${r.id}_${n}`));
    items.push(...added);
    r.store.set(key, items);
    if (body['metadata'] !== undefined) r.store.set(`${key}:metadata`, obj(body['metadata']));
    if (m?.[2]) return listOf(added);
  } else if (m?.[2]) {
    return listOf(items);
  }
  return {
    id,
    object: 'conversation',
    created_at: 1767225600,
    metadata: body['metadata'] !== undefined ? obj(body['metadata']) : meta,
  };
});

/** An Anthropic batch request's answer: its last user message's text. */
function batchMessage(params: Obj, n: number): Obj {
  const last = arr(params['messages']).map(obj).at(-1) ?? {};
  return {
    id: `msg_fake_batch_${n}`,
    type: 'message',
    role: 'assistant',
    model: String(params['model'] ?? 'unknown'),
    content: [{ type: 'text', text: text(last['content']) }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 11, output_tokens: 7 },
  };
}

/** A Message Batch object: in progress, or ended with its `results_url` on this server's own origin. */
function batchObject(r: FakeReply, id: string, ended: boolean): Obj {
  const requests = (r.store.get(`batch:${id}`) as unknown[] | undefined) ?? [];
  return {
    id,
    type: 'message_batch',
    processing_status: ended ? 'ended' : 'in_progress',
    request_counts: {
      processing: ended ? 0 : requests.length,
      succeeded: ended ? requests.length : 0,
      errored: 0,
      canceled: 0,
      expired: 0,
    },
    created_at: '2026-01-01T00:00:00Z',
    ended_at: ended ? '2026-01-01T01:00:00Z' : null,
    expires_at: '2026-01-02T00:00:00Z',
    archived_at: null,
    cancel_initiated_at: null,
    results_url: ended
      ? `${r.origin}${r.path.replace(/\/messages\/batches(\/.*)?$/, '')}/messages/batches/${id}/results`
      : null,
  };
}

/**
 * Anthropic Message Batches: `POST /v1/messages/batches` (in progress, no results yet), `GET …/{id}` (ended,
 * `results_url` on this server's own origin, as Anthropic names its own host) and `GET …/{id}/results`
 * (JSONL, one line per request, each answering with its request's last user text).
 */
export const anthropicBatchWire = storedWire(
  (r) => {
    const m = /\/messages\/batches(?:\/([^/]+))?$/.exec(r.path);
    if (r.method === 'GET' && !m?.[1]) {
      // The list: every batch created, ended.
      const ids = [...r.store.keys()].filter((k) => k.startsWith('batch:')).map((k) => k.slice(6));
      const data = ids.map((id) => batchObject(r, id, true));
      return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
    }
    // Unique across reset() too, as Anthropic's ids are: the proxy keys what it records by the id.
    const id = m?.[1] ?? `msgbatch_fake_${r.id}_${randomBytes(4).toString('hex')}`;
    if (r.method === 'POST') r.store.set(`batch:${id}`, arr(obj(r.body)['requests']));
    return batchObject(r, id, r.method !== 'POST');
  },
  (r) => {
    const m = /\/messages\/batches\/([^/]+)\/results$/.exec(r.path);
    if (!m) return undefined;
    const requests = (r.store.get(`batch:${m[1]}`) as unknown[] | undefined) ?? [];
    const lines = requests.map((q, n) =>
      JSON.stringify({
        custom_id: obj(q)['custom_id'],
        result: { type: 'succeeded', message: batchMessage(obj(obj(q)['params']), n) },
      }),
    );
    return { type: 'application/binary', text: lines.map((l) => `${l}\n`).join('') };
  },
);

/**
 * Gemini batches: `models/{m}:batchGenerateContent` and `:asyncBatchEmbedContent` answer the operation
 * (`metadata` the batch, its `displayName` echoed, pending); `GET batches/{id}` answers it succeeded, with
 * each inline request's last user text as its inlined response.
 */
export const geminiBatchWire = storedWire((r) => {
  const got = /\/batches\/([^/:]+)$/.exec(r.path);
  const name = got ? `batches/${got[1]}` : `batches/fake${r.id}`;
  const batch = got ? obj(r.store.get(name)) : obj(obj(r.body)['batch']);
  if (!got) r.store.set(name, batch);
  const input = obj(batch['inputConfig'] ?? batch['input_config']);
  const requests = arr(obj(input['requests'])['requests']).map(obj);
  const model = /\/models\/([^/:]+):/.exec(r.path)?.[1];
  const metadata: Obj = {
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
    name,
    model: model ? `models/${model}` : String(r.store.get(`${name}:model`) ?? 'models/unknown'),
    displayName: batch['displayName'] ?? batch['display_name'] ?? '',
    state: got ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_PENDING',
    createTime: '2026-01-01T00:00:00Z',
    updateTime: '2026-01-01T00:00:00Z',
  };
  if (model) r.store.set(`${name}:model`, `models/${model}`);
  if (!got) return { name, metadata };
  metadata['output'] = {
    inlinedResponses: {
      inlinedResponses: requests.map((q) => {
        const last = arr(obj(q['request'])['contents']).map(obj).at(-1) ?? {};
        return {
          response: {
            candidates: [
              {
                content: { role: 'model', parts: [{ text: text(last['parts']) }] },
                finishReason: 'STOP',
                index: 0,
              },
            ],
            usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 },
          },
          ...(q['metadata'] !== undefined ? { metadata: q['metadata'] } : {}),
        };
      }),
    },
  };
  return { name, metadata, done: true, response: { '@type': metadata['@type'], ...metadata } };
});
