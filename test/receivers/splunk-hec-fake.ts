import { type FakeHttp, type Reply, startFakeHttp } from './fake-http.js';

export interface HecFake extends FakeHttp {
  /** Every envelope accepted so far, in arrival order. */
  envelopes: Record<string, unknown>[];
}

/**
 * Splunk HTTP Event Collector contract: `Authorization: Splunk <token>` (codes 2/4 otherwise), JSON
 * envelopes concatenated without array or commas, each with an `event` (code 12 otherwise, malformed JSON is
 * code 6), `GET /services/collector/health` answers code 17. Success is 200 {"text":"Success","code":0}.
 */
export async function startHecFake(token: string): Promise<HecFake> {
  const envelopes: Record<string, unknown>[] = [];
  const handle = (req: {
    method: string;
    path: string;
    headers: Record<string, unknown>;
    text: string;
  }): Reply => {
    if (req.method === 'GET' && req.path === '/services/collector/health') {
      return { status: 200, body: { text: 'HEC is healthy', code: 17 } };
    }
    if (req.method !== 'POST' || !['/services/collector', '/services/collector/event'].includes(req.path)) {
      return { status: 404, body: { text: 'The requested URL was not found on this server.', code: 404 } };
    }
    const auth = String(req.headers['authorization'] ?? '');
    if (auth === '') return { status: 401, body: { text: 'Token is required', code: 2 } };
    if (auth !== `Splunk ${token}`) return { status: 403, body: { text: 'Invalid token', code: 4 } };
    const parsed = parseConcatenated(req.text);
    if (parsed === null) return { status: 400, body: { text: 'Invalid data format', code: 6 } };
    if (parsed.length === 0) return { status: 400, body: { text: 'No data', code: 5 } };
    for (const [i, env] of parsed.entries()) {
      if (!('event' in env))
        return {
          status: 400,
          body: { text: 'Event field is required', code: 12, 'invalid-event-number': i },
        };
    }
    envelopes.push(...parsed);
    return { status: 200, body: { text: 'Success', code: 0 } };
  };
  const fake = await startFakeHttp((r) => handle(r as never));
  return Object.assign(fake, { envelopes });
}

/** Splits `{…}{…}` / `{…}\n{…}` into objects the way HEC does; null on any malformed or non-object value. */
export function parseConcatenated(text: string): Record<string, unknown>[] | null {
  const out: Record<string, unknown>[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    if (text[i] !== '{') return null;
    let depth = 0;
    let inString = false;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    if (depth !== 0) return null;
    try {
      out.push(JSON.parse(text.slice(i, j + 1)) as Record<string, unknown>);
    } catch {
      return null;
    }
    i = j + 1;
  }
  return out;
}
