import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { carrierSources } from './carriers.js';
import { PLANTED } from './own/planted.js';

// A data folder laid out like ../shared/data, with sentences written for this test.
const root = mkdtempSync(join(tmpdir(), 'carriers-'));
after(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'injection'));
mkdirSync(join(root, 'dlp'));
const sentences = Array.from(
  { length: 100 },
  (_, i) =>
    `Der Verein ${i} baute im Jahr ${1900 + i} eine neue Brücke über den kleinen Fluss am Rand der Stadt.`,
);
writeFileSync(
  join(root, 'dlp/germeval2014_de.jsonl'),
  sentences.map((text) => JSON.stringify({ text, lang: 'de', entities: [] })).join('\n'),
);

describe('carrier documents (training-only rows)', () => {
  const sources = carrierSources(join(root, 'injection'));

  it('reads only the carrier files that exist, and marks them training-only', () => {
    assert.deepEqual(
      sources.map((s) => s.name),
      ['carrier_de_germeval'],
    );
    const s = sources[0];
    assert.equal(s?.trainable, true);
    assert.equal(s?.scored, false);
    assert.ok(s?.rows.every((r) => r.aux === true && r.source === 'carrier_de_germeval'));
  });

  it('gives every passage a clean copy and a copy with a planted instruction, presented alike', () => {
    const rows = sources[0]?.rows ?? [];
    assert.ok(rows.length >= 6 && rows.length % 2 === 0);
    const addresses = Object.values(PLANTED).flatMap((m) => m.aiAddress);
    const goals = Object.values(PLANTED).flatMap((m) => m.goals);
    for (let i = 0; i < rows.length; i += 2) {
      const [clean, attack] = [rows[i], rows[i + 1]];
      assert.equal(clean?.label, 0);
      assert.equal(clean?.kind, 'document');
      assert.equal(attack?.label, 1);
      assert.equal(attack?.kind, 'indirect');
      assert.equal(clean?.context, attack?.context);
      assert.ok(
        goals.some((g) => attack?.text.includes(g)),
        'the attack carries a goal',
      );
      assert.ok(!goals.some((g) => clean?.text.includes(g)), 'the clean copy carries none');
      assert.ok(!addresses.some((a) => clean?.text.includes(a)));
    }
    // Planted sentences come in the carrier's language and in Italian and Spanish.
    assert.deepEqual([...new Set(rows.filter((r) => r.label === 1).map((r) => r.lang))].sort(), [
      'de',
      'es',
      'it',
    ]);
  });
});
