import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim } from '../../engines/hallucination/index.js';
import { combineWithJudge, parseJudgeAnswer } from './llm-judge.js';

describe('parseJudgeAnswer', () => {
  it('reads numbered labels in the usual decorations and ignores the rest', () => {
    const text = [
      'Here you go:',
      '1: SUPPORTED',
      '- **2.** not enough info',
      '3) Contradicted',
      '9: SUPPORTED',
    ].join('\n');
    assert.deepEqual(parseJudgeAnswer(text, 4), ['supported', 'unsupported', 'contradicted', undefined]);
  });

  it('keeps the first answer for a number given twice', () => {
    assert.deepEqual(parseJudgeAnswer('1: CONTRADICTED\n1: SUPPORTED', 1), ['contradicted']);
  });
});

describe('combineWithJudge', () => {
  const sources = ['The Rhine flows into the North Sea. Its source is in the Swiss Alps.'];
  const local = checkClaim('The Rhine flows into the North Sea and rises in Switzerland.', sources);

  it('takes the model verdict per sub-claim and recomputes the whole verdict and score', () => {
    assert.ok(local.claims.length >= 2);
    const all = combineWithJudge(
      local,
      local.claims.map(() => 'supported'),
    );
    assert.equal(all.verdict, 'supported');
    assert.ok(all.evidence.every((e) => e.verdict === 'supported'));
    const one = combineWithJudge(local, ['supported', 'contradicted']);
    assert.equal(one.verdict, 'contradicted');
    assert.ok(one.score <= 0.25);
  });

  it('leaves a sub-claim the model did not answer as the local checker decided it', () => {
    const same = combineWithJudge(local, []);
    assert.deepEqual(
      same.claims.map((c) => c.verdict),
      local.claims.map((c) => c.verdict),
    );
  });
});
