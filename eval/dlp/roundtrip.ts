import { createTokenMap, rehydrate, StreamingRehydrator, tokenize } from '../../src/engines/dlp/index.js';
import { mulberry32 } from './corpus/random.js';

export interface RoundTrip {
  texts: number;
  whole: number;
  streamed: number;
  streamedJson: number;
  tokens: number;
}

/** tokenize → rehydrate must give the original text back, whole and fed in random chunks. */
export function roundTrip(texts: string[], seed = 11, onFailure?: (text: string) => void): RoundTrip {
  const rng = mulberry32(seed);
  const key = new TextEncoder().encode('eval-session-key');
  const result: RoundTrip = { texts: texts.length, whole: 0, streamed: 0, streamedJson: 0, tokens: 0 };
  for (const text of texts) {
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    result.tokens += t.tokens.length;
    const whole = rehydrate(t.tokenized, map).text === text;
    if (whole) result.whole++;
    const stream = new StreamingRehydrator(map);
    let out = '';
    let i = 0;
    while (i < t.tokenized.length) {
      const n = 1 + Math.floor(rng() * 12);
      out += stream.push(t.tokenized.slice(i, i + n));
      i += n;
    }
    out += stream.flush();
    if (out === text) result.streamed++;
    // JSON mode: the tokenized text sits inside a JSON string (tool-call arguments).
    const json = JSON.stringify(t.tokenized).slice(1, -1);
    const jsonStream = new StreamingRehydrator(map, { json: true });
    let jsonOut = '';
    for (let k = 0; k < json.length; k += 7) jsonOut += jsonStream.push(json.slice(k, k + 7));
    jsonOut += jsonStream.flush();
    const jsonBack = JSON.parse(`"${jsonOut}"`) === text;
    if (jsonBack) result.streamedJson++;
    if (onFailure && (!whole || out !== text || !jsonBack)) onFailure(text);
  }
  return result;
}
