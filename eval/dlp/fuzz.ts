// npm run fuzz:dlp [-- N [seed]] — the round trip on N random texts (default 100,000): tokenize, then
// rehydrate whole, streamed in random chunks and JSON-escaped; every text must come back exactly.
import { mulberry32 } from './corpus/random.js';
import { fuzzText } from './fuzz-texts.js';
import { roundTrip } from './roundtrip.js';

const n = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? 17);
const rng = mulberry32(seed);
const texts = Array.from({ length: n }, () => fuzzText(rng));
const started = performance.now();
const r = roundTrip(texts, seed, (text) => console.log(`FAILED ${JSON.stringify(text)}`));
const seconds = (performance.now() - started) / 1000;
const pct = (k: number) => `${((100 * k) / r.texts).toFixed(3)} %`;
console.log(
  `round trip on ${r.texts} random texts (seed ${seed}), ${r.tokens} tokens, ${seconds.toFixed(1)} s`,
);
console.log(`  whole ${pct(r.whole)}   streamed ${pct(r.streamed)}   streamed JSON ${pct(r.streamedJson)}`);
const ok = r.whole === r.texts && r.streamed === r.texts && r.streamedJson === r.texts;
console.log(ok ? 'PASS round trip 100 %' : 'FAIL round trip below 100 %');
process.exitCode = ok ? 0 : 1;
