import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { detectEntities } from '../detect.js';
import { loadNameModel } from '../load-name-model.js';
import { NAME_MODEL } from '../model/names-weights.js';
import {
  combineNames,
  detectNames,
  nameContext,
  nameModelLoaded,
  wordFeatures,
  wordProbabilities,
} from './name-model.js';

function spans(text: string, list: Array<{ start: number; end: number }>): string[] {
  return list.map((s) => text.slice(s.start, s.end));
}

test('the model vetoes weak rule findings and adds runs the rules missed', () => {
  const text = 'Yesterday Herr Brunner met Wei Ligang in Basel.';
  const ctx = nameContext(text);
  const probs = new Float32Array(ctx.words.length);
  const index = (w: string) => ctx.words.findIndex((x) => x.text === w);
  probs[index('Wei')] = 0.9;
  probs[index('Ligang')] = 0.8;
  probs[index('Brunner')] = 0.1;
  // The rules find "Brunner" after the title; the model, here, does not believe it and finds Wei Ligang.
  assert.deepEqual(spans(text, ctx.rules), ['Brunner']);
  assert.deepEqual(spans(text, combineNames(ctx, probs, 0.4, 0.7)), ['Wei Ligang']);
  probs[index('Brunner')] = 0.6;
  assert.deepEqual(spans(text, combineNames(ctx, probs, 0.4, 0.7)), ['Brunner', 'Wei Ligang']);
  // A run is only as strong as its weakest word.
  assert.deepEqual(spans(text, combineNames(ctx, probs, 0.4, 0.85)), ['Brunner']);
});

test('the weights load on demand and stay out of the bundled engine', async () => {
  const text = 'Dear Anna Keller, your contract is attached.';
  assert.equal(nameModelLoaded(), false);
  assert.throws(() => detectEntities(text, { nameModel: true }), /loadNameModel/);
  // The rules need no model.
  assert.deepEqual(
    detectEntities(text).map((e) => e.value),
    ['Anna Keller'],
  );
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../index.ts', import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
  });
  const inputs = Object.keys(bundle.metafile.inputs);
  assert.ok(inputs.some((f) => f.endsWith('detectors/name-model.ts')));
  assert.ok(!inputs.some((f) => f.includes('names-weights')), 'the engine bundle holds the weights');
  await loadNameModel();
  assert.equal(nameModelLoaded(), true);
  assert.deepEqual(
    detectEntities(text, { nameModel: true }).map((e) => e.value),
    ['Anna Keller'],
  );
});

test('the shipped model keeps the names business text announces', async () => {
  await loadNameModel();
  assert.ok(NAME_MODEL.first.length > 0, 'weights are committed');
  const found = (t: string) => detectNames(t).map((c) => c.value);
  assert.deepEqual(found('Dear Anna Keller, your contract is attached.'), ['Anna Keller']);
  assert.deepEqual(found('Bonjour, je m’appelle Sophie Martin et j’ai une question.'), ['Sophie Martin']);
  assert.deepEqual(found('Please forward the report to the Finance Committee by Monday.'), []);
  const ctx = nameContext('Sehr geehrter Herr Frischknecht, vielen Dank.');
  const probs = wordProbabilities(ctx);
  const k = ctx.words.findIndex((w) => w.text === 'Frischknecht');
  assert.ok(probs[k]! > 0.5, `probability ${probs[k]}`);
});

test('the model reads the cue class before a word, a reporting verb after it, and the text language', () => {
  const features = (text: string, word: string) => {
    const ctx = nameContext(text);
    return wordFeatures(
      ctx,
      ctx.words.findIndex((w) => w.text === word),
    );
  };
  const de = features(
    'Gestern hat Bundeskanzler Scholz in Berlin gesprochen, sagte die Sprecherin.',
    'Scholz',
  );
  assert.ok(de.includes('cue=T') && de.includes('lg=de') && de.includes('pc=bundeskanzler'), de.join(' '));
  const fr = features('Selon le rapport, M. Dupont a quitté la réunion avant la fin.', 'Dupont');
  assert.ok(fr.includes('cue=H') && fr.includes('lg=fr'), fr.join(' '));
  const en = features('The plan was approved yesterday, Keller said in a statement.', 'Keller');
  assert.ok(en.includes('sa=1') && en.includes('cue=-') && en.includes('lg=en'), en.join(' '));
});
