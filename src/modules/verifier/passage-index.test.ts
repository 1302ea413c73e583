import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkInCorpus } from '../../engines/hallucination/index.js';
import { buildPassageIndex } from './passage-index.js';
import type { PassageRecord } from './verifier.repo.js';

const rec = (document: string, text: string, i: number): PassageRecord => ({
  source_id: document.startsWith('a') ? 'src_a' : 'src_b',
  document_id: document,
  citation: `https://intranet.example/${document}`,
  position: i,
  text,
});

const A = [
  rec('a1', 'Harbour Mills was founded in 2011 in Leeds. Two years later it opened a plant in York.', 0),
  rec('a1', 'The company employs 1,250 people and is led by Maria Okafor.', 1),
  rec('a2', 'The warranty lasts two years. Returns are accepted within 30 days of delivery.', 0),
];
const B = [
  rec('b1', 'The York plant does not produce paper; it makes cardboard for shipping boxes.', 0),
  rec('b1', 'In 2015 the company bought a rival based in Hull.', 1),
];
const CLAIMS = [
  'Harbour Mills opened a plant in York in 2013.',
  'Harbour Mills opened a plant in York in 2014.',
  'The company employs 1,520 people. It is led by Maria Okafor.',
  'The York plant produces paper.',
  'Returns are accepted within 60 days. The warranty lasts two years.',
  'In 2015 the company bought a rival based in Hull.',
];

describe('passage index', () => {
  it('a rebuild reuses the analysed passages it already had and decides exactly as a fresh build', async () => {
    const first = await buildPassageIndex(A, new Date(0));
    const rebuilt = await buildPassageIndex([...A, ...B], new Date(0), first);
    const fresh = await buildPassageIndex([...A, ...B], new Date(0));
    // Unchanged passages keep their analysis (the same objects); new ones are analysed.
    for (let i = 0; i < A.length; i++) assert.equal(rebuilt.corpus.sentences[i], first.corpus.sentences[i]);
    assert.notEqual(rebuilt.corpus.sentences[A.length], undefined);
    assert.deepEqual(rebuilt.meta, fresh.meta);
    // A relative year resolved once, not again on reuse ("two years later" is 2013, stated once).
    const plant = rebuilt.corpus.sentences[0]![1]!;
    assert.deepEqual(
      plant.numbers.filter((n) => n.kind === 'year').map((n) => n.value),
      [2013],
    );
    for (const claim of CLAIMS)
      assert.deepEqual(
        checkInCorpus(rebuilt.corpus, claim, { signals: true }),
        checkInCorpus(fresh.corpus, claim, { signals: true }),
        claim,
      );
    // The claims are not all decided alike, so the comparison above compares something.
    const verdicts = new Set(
      CLAIMS.flatMap((c) => checkInCorpus(fresh.corpus, c).outcomes.map((o) => o.part.verdict)),
    );
    assert.ok(verdicts.size >= 2, [...verdicts].join(','));
  });

  it('a passage whose text changed is analysed again', async () => {
    const first = await buildPassageIndex(A, new Date(0));
    const changed = [
      A[0]!,
      { ...A[1]!, text: 'The company employs 900 people and is led by Maria Okafor.' },
      A[2]!,
    ];
    const rebuilt = await buildPassageIndex(changed, new Date(0), first);
    assert.equal(rebuilt.corpus.sentences[0], first.corpus.sentences[0]);
    assert.notEqual(rebuilt.corpus.sentences[1], first.corpus.sentences[1]);
    assert.deepEqual(
      rebuilt.corpus.sentences[1]![0]!.numbers.map((n) => n.value),
      [900],
    );
    // The old figure is gone from the rebuilt index.
    const { outcomes } = checkInCorpus(rebuilt.corpus, 'The company employs 1,250 people.');
    assert.notEqual(outcomes[0]!.part.verdict, 'supported');
  });

  it('lets the event loop run while it analyses many passages', async () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      rec('c1', `Depot ${i} in Leeds stores ${i * 7} pallets and opened in ${1950 + (i % 70)}.`, i),
    );
    let done = false;
    let sawPending = false;
    const building = buildPassageIndex(many, new Date(0)).then((index) => {
      done = true;
      return index;
    });
    // Runs in the next turn of the loop: before the build ends only if the build let the loop go.
    setImmediate(() => {
      sawPending = !done;
    });
    const index = await building;
    assert.equal(index.meta.length, 300);
    assert.ok(sawPending, 'the build held the event loop from start to end');
  });

  it('orders passages by source, document and position, whatever order the store gives them in', async () => {
    const sorted = await buildPassageIndex([...A, ...B], new Date(0));
    const shuffled = await buildPassageIndex([B[1]!, A[2]!, A[1]!, B[0]!, A[0]!], new Date(0));
    assert.deepEqual(shuffled.meta, sorted.meta);
    assert.deepEqual(
      shuffled.meta.map((m) => m.text),
      [...A, ...B].map((r) => r.text),
    );
    for (const claim of CLAIMS)
      assert.deepEqual(checkInCorpus(shuffled.corpus, claim), checkInCorpus(sorted.corpus, claim), claim);
  });
});
