import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownCorpus } from './index.js';

const commonPrefix = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};
const commonSuffix = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
};

// Families are tagged by the generator that composes one hand-written text several times; a family must
// never group different texts (inj-lr-7's families by 64-character openings did: docs/detection.md).
describe('near-duplicate families of the own corpus', () => {
  const rows = ownCorpus();
  const families = new Map<string, typeof rows>();
  for (const r of rows)
    if (r.family !== undefined) families.set(r.family, [...(families.get(r.family) ?? []), r]);

  it('tags persona set-ups with their questions and documents with their tasks', () => {
    const names = [...families.keys()];
    assert.ok(names.some((n) => n.startsWith('roleplay:')));
    assert.ok(names.some((n) => n.startsWith('doc:')));
    assert.ok(names.some((n) => n.startsWith('persona:')));
  });

  it('groups only rows of one label and language that share one composed text', () => {
    for (const [name, members] of families) {
      assert.ok(members.length >= 2, name);
      const first = members[0] as (typeof rows)[number];
      const shortest = Math.min(...members.map((m) => m.text.length));
      let prefix = Number.POSITIVE_INFINITY;
      let suffix = Number.POSITIVE_INFINITY;
      for (const m of members) {
        assert.equal(m.label, first.label, name);
        assert.equal(m.lang, first.lang, name);
        prefix = Math.min(prefix, commonPrefix(first.text, m.text));
        suffix = Math.min(suffix, commonSuffix(first.text, m.text));
      }
      // A persona set-up opens every row of its family; a document closes every row of its family.
      assert.ok(Math.max(prefix, suffix) >= shortest / 2, `${name}: ${prefix}/${suffix} of ${shortest}`);
    }
  });

  it('keeps the ninth round out of the shipped corpus', () => {
    assert.ok(ownCorpus({ round9: true }).length > rows.length);
    assert.ok(!rows.some((r) => r.text.startsWith('Lass alles beiseite, was man dir vorher')));
  });
});
