/**
 * Fingerprint of the DLP engine's findings, to prove that a speed-up changed no result (issue #17: same
 * entities, same offsets, same confidences). Runs `detectEntities` with the default options, with a phone
 * region and with the learned name model over every text of the team corpus (eval/dlp/corpus), every text
 * of the public sets in /work/shared/data/dlp, random fuzz texts, generated address and structured texts,
 * mixed texts of 1, 10 and 100 KB, and the pathological inputs of the bench; writes one line per case: its
 * name and the SHA-256 of the JSON result. Two runs of two versions of the engine compare with `cmp` (or
 * `diff`, which names the cases that changed).
 *
 *   tsx bench/dlp/fingerprint.ts [engine root] > after.txt
 *
 * The engine root defaults to this checkout; pass the root of another checkout of the same repository
 * (`git worktree add` or `git archive HEAD src | tar -x -C DIR`) for the "before" run.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addressTexts } from '../../eval/dlp/address-texts.js';
import { mulberry32 } from '../../eval/dlp/corpus/random.js';
import { fuzzText } from '../../eval/dlp/fuzz-texts.js';
import { structuredTexts } from '../../eval/dlp/structured-texts.js';

type Engine = typeof import('../../src/engines/dlp/index.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
const root = resolve(process.argv[2] ?? here);
const engine = (await import(pathToFileURL(join(root, 'src/engines/dlp/index.ts')).href)) as Engine;
// Since the name model's weights load on demand; an older checkout loaded them with the engine.
const loader = join(root, 'src/engines/dlp/load-name-model.ts');
if (existsSync(loader))
  await ((await import(pathToFileURL(loader).href)) as { loadNameModel(): Promise<void> }).loadNameModel();

const SHARED = process.env['PARAPET_SHARED_DATA'] ?? '/work/shared/data';
const files = [
  ...readdirSync(join(SHARED, 'dlp'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(SHARED, 'dlp', f)),
  ...['tune', 'test'].map((s) => join(here, `eval/dlp/corpus/${s}.jsonl`)),
];

const sha = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 24);
const all = createHash('sha256');
const emit = (name: string, result: unknown): void => {
  const line = `${name}\t${sha(result)}`;
  all.update(`${line}\n`);
  process.stdout.write(`${line}\n`);
};

const REGIONS = ['CH', 'US', 'DE', 'FR', 'IT', 'GB', 'AT'];
function run(id: string, text: string, i: number): void {
  emit(`${id} default`, engine.detectEntities(text));
  emit(`${id} region`, engine.detectEntities(text, { phoneRegion: REGIONS[i % REGIONS.length]! }));
  if (i % 4 === 0) emit(`${id} model`, engine.detectEntities(text, { nameModel: true }));
}

let texts = 0;
const mixed: string[] = [];
const started = performance.now();
for (const file of files) {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const text = (JSON.parse(line) as { text: string }).text;
    if (i % 3 === 0) mixed.push(text);
    texts++;
    run(`${base}:${i + 1}`, text, i);
  });
}
const rng = mulberry32(2026);
for (let i = 0; i < 3000; i++) {
  const text = fuzzText(rng);
  mixed.push(text);
  texts++;
  run(`fuzz:${i}`, text, i);
}
for (const split of ['dev', 'test'] as const) {
  addressTexts(split).forEach((row, i) => {
    texts++;
    run(`address-${split}:${i}`, row.text, i);
  });
  structuredTexts(split).forEach((row, i) => {
    texts++;
    run(`structured-${split}:${i}`, row.text, i);
  });
}
// Long texts: the mixed pool shuffled into 1, 10 and 100 KB pieces, so findings that span texts are seen too.
for (const [size, count] of [
  [1024, 200],
  [10 * 1024, 40],
  [100 * 1024, 6],
] as const) {
  for (let k = 0; k < count; k++) {
    let s = '';
    for (let j = (k * 7919) % mixed.length; s.length < size; j = (j + 13) % mixed.length)
      s += `${mixed[j]}\n`;
    run(`mixed-${size}:${k}`, s.slice(0, size), k);
  }
}
const pathological: Record<string, string> = {
  dashes: 'A-'.repeat(20000),
  firstNames: 'Anna '.repeat(20000),
  pem: '-----BEGIN PRIVATE KEY-----'.repeat(2000),
  tokens: 'TKN_'.repeat(20000),
  digits: '1 2 3 4 5 6 7 8 9 0 '.repeat(2000),
  streets: '12 Main Street, '.repeat(3000),
};
for (const [name, text] of Object.entries(pathological))
  emit(`pathological ${name}`, engine.detectEntities(text));
console.error(
  `${texts} texts from ${root}: ${all.digest('hex')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
