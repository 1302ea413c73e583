import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// An upstream for the proxies' field tests: it answers each provider format with the request body it
// received as the model's text (as a model asked to repeat its input would), so a client reads back what
// the provider saw, with every token restored, and the test reads the exact bytes that went up.

export interface Seen {
  path: string;
  raw: string;
  body: any;
  /** The request's Content-Type header. */
  contentType: string;
}

/** The upstream: records each request and answers in its format with the body it got as the text. */
export function startEcho(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      const body = JSON.parse(raw);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.push({ path, raw, body, contentType: req.headers['content-type'] ?? '' });
      const text = raw;
      const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
      let answer: unknown;
      if (path.endsWith('/chat/completions'))
        answer = {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        };
      else if (path.endsWith('/responses'))
        // The Responses API echoes metadata, user and safety_identifier in its answer.
        answer = {
          id: 'resp_1',
          object: 'response',
          created_at: 1,
          status: 'completed',
          model: body.model,
          metadata: body.metadata ?? {},
          user: body.user ?? null,
          safety_identifier: body.safety_identifier ?? null,
          output: [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ],
          usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
        };
      else if (path.endsWith('/embeddings'))
        answer = {
          object: 'list',
          model: body.model,
          data: [{ object: 'embedding', index: 0, embedding: [0.5, 0.25] }],
          usage,
        };
      else if (path.endsWith('/v1/messages'))
        answer = {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 3, output_tokens: 2 },
        };
      else if (path.includes(':generateContent'))
        answer = {
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 },
        };
      else if (path.endsWith('/v2/chat'))
        answer = {
          id: 'c1',
          finish_reason: 'COMPLETE',
          message: { role: 'assistant', content: [{ type: 'text', text }] },
          usage: { tokens: { input_tokens: 3, output_tokens: 2 } },
        };
      res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ?? { error: { message: `echo: no route for ${path}` } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server }),
    ),
  );
}

/** The one request the upstream received: none of `originals` anywhere in its bytes, tokens instead. */
export function sentTokenized(seen: Seen[], originals: string[]): Seen {
  assert.equal(seen.length, 1, 'the upstream was called once');
  const got = seen[0] as Seen;
  for (const v of originals) assert.ok(!got.raw.includes(v), `the upstream saw ${v}: ${got.raw}`);
  assert.match(got.raw, /TKN_/);
  return got;
}
