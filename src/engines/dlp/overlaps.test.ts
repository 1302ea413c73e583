import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../../eval/dlp/corpus/random.js';
import { resolveOverlaps } from './detect.js';
import type { Candidate } from './types.js';

function candidateAt(start: number, end: number, confidence: number, n: number): Candidate {
  return { type: 'NAME', domain: 'PERSONAL', start, end, value: '', confidence, detector: `c${n}` };
}

// Up to 16 findings are compared pairwise, more go through the per-character map: both must choose alike.
// The same random findings are resolved alone (pairwise) and beside 17 findings far behind them that
// overlap nothing (the map), and must come out the same, empty findings and ties included.
test('few and many findings are resolved alike', () => {
  const rng = mulberry32(18);
  for (let round = 0; round < 3000; round++) {
    const count = 1 + Math.floor(rng() * 16);
    const found: Candidate[] = [];
    for (let n = 0; n < count; n++) {
      const start = Math.floor(rng() * 60);
      const end = start + Math.floor(rng() * 12); // sometimes empty
      const confidence = [0.6, 0.75, 0.9, 0.95][Math.floor(rng() * 4)]!;
      found.push(candidateAt(start, end, confidence, n));
    }
    const far = Array.from({ length: 17 }, (_, k) => candidateAt(1000 + k * 10, 1005 + k * 10, 0.5, 100 + k));
    const alone = resolveOverlaps(found, 1200);
    const beside = resolveOverlaps([...found, ...far], 1200).filter((c) => c.start < 1000);
    assert.deepEqual(beside, alone, JSON.stringify(found));
  }
});
