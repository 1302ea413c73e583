import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour = 'true' | 'false' | 'unknown' | 'slow' | 'broken';

/**
 * Fake OpenAI-compatible chat servers for multi-LLM consensus: each answers every numbered claim with
 * its fixed verdict (or stalls, or answers garbage), and keeps the bodies it was sent.
 */
export interface FakeModels {
  models: Array<{ name: string; baseUrl: string; model: string }>;
  bodies: string[];
  close(): Promise<void>;
}

export async function startFakeModels(behaviours: Behaviour[]): Promise<FakeModels> {
  const bodies: string[] = [];
  const servers: http.Server[] = [];
  const models: FakeModels['models'] = [];
  for (const [i, behaviour] of behaviours.entries()) {
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      req.on('end', () => {
        bodies.push(raw);
        if (behaviour === 'slow') return; // never answers: the verifier's time limit makes it abstain
        if (behaviour === 'broken') {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"choices":[{"message":{"content":"I think so"}}]}');
          return;
        }
        const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }> };
        const claims = (body.messages.find((m) => m.role === 'user')?.content ?? '')
          .split('\n')
          .filter(Boolean);
        const content = JSON.stringify({ verdicts: claims.map(() => behaviour) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `c${i}`,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    models.push({
      name: `fake-${i}-${behaviour}`,
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      model: `fake-${behaviour}`,
    });
  }
  return {
    models,
    bodies,
    async close() {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
