// A minimal OpenAI-compatible upstream for the gateway benchmark, run as its own process so that it
// does not share an event loop with the gateway or the load generator. It echoes the last user message
// (so tokens come back and rehydration has work to do); streams send it in eight content chunks.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Message {
  role: string;
  content: unknown;
}

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (b: Buffer) => parts.push(b));
  req.on('end', () => {
    let body: { model?: string; messages?: Message[]; stream?: boolean };
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"bad json","type":"invalid_request_error"}}');
      return;
    }
    const text = lastUserText(body.messages ?? []).slice(0, 400);
    const model = body.model ?? 'gpt-4o-mini';
    const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
    if (!body.stream) {
      const out = JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const frame = (delta: unknown, finish: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.write(frame({ role: 'assistant', content: '' }));
    const step = Math.max(1, Math.ceil(text.length / 8));
    let out = '';
    for (let i = 0; i < text.length; i += step) out += frame({ content: text.slice(i, i + step) });
    out += frame({}, 'stop');
    out += `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`;
    out += 'data: [DONE]\n\n';
    res.end(out);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`upstream listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
