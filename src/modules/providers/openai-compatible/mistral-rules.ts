import { asArray, asRecord } from '../shared/chunks.js';

const MISTRAL_TOOL_ID = /^[a-zA-Z0-9]{9}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Mistral rejects tool-call ids that are not 9 alphanumerics and assistant messages that carry both content
 * and tool_calls. History from other providers breaks both rules, so ids are mapped deterministically (the
 * assistant call and its tool result get the same new id) and the content is dropped.
 */
export function mistralAdjustBody(body: Record<string, unknown>): void {
  const messages = asArray(body['messages']);
  body['messages'] = messages.map((m) => {
    const msg = asRecord(m);
    if (!msg) return m;
    const out: Record<string, unknown> = { ...msg };
    if (typeof msg['tool_call_id'] === 'string') out['tool_call_id'] = mistralToolId(msg['tool_call_id']);
    const calls = asArray(msg['tool_calls']);
    if (calls.length > 0) {
      out['tool_calls'] = calls.map((c) => {
        const call = asRecord(c);
        return call && typeof call['id'] === 'string' ? { ...call, id: mistralToolId(call['id']) } : c;
      });
      out['content'] = '';
    }
    return out;
  });
}

export function mistralToolId(id: string): string {
  if (MISTRAL_TOOL_ID.test(id)) return id;
  // Two FNV-1a passes with different offsets give enough bits for 9 base-62 characters.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  let n = BigInt(a) * 0x100000000n + BigInt(b);
  let out = '';
  for (let i = 0; i < 9; i++) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}
