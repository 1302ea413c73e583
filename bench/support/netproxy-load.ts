import { type Agent, request } from 'node:http';

// What bench:netproxy and its A/B script (bench/netproxy/ab.ts) both send and time: the same request body
// and one timed POST. Kept in one place so the A/B measures exactly the bench's request.

// Synthetic text (invented people and numbers), about 2 KB. The history repeats (a conversation resends it
// with every turn); the last turn is new in every request, so detection always has unseen text to scan.
const FILLER = 'We reviewed the quarterly plan and the schedule for the migration of the reporting tools. ';
let turns = 0;
/** A chat-completions body with or without personal data in its new last turn. */
export function chatBody(pii: boolean, stream = false): string {
  const n = ++turns;
  const turn = pii
    ? `Turn ${n}: please send the contract to Anna Keller at anna.keller@example.com or call +41 44 668 18 00.`
    : `Turn ${n}: please send the contract to the finance team and call the office.`;
  return JSON.stringify({
    model: 'gpt-4o-mini',
    stream,
    messages: [
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: FILLER.repeat(20) },
      { role: 'user', content: turn },
    ],
  });
}

/** Milliseconds to the first byte and to the end of the answer of one JSON POST; rejects on a non-200. */
export function timedPost(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  payload: string,
): Promise<{ first: number; total: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let first = 0;
        res.on('data', () => {
          if (!first) first = performance.now() - started;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve({ first, total: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
