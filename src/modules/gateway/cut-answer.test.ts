import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finishedPart, isCutFinish } from './cut-answer.js';

const TOKEN = 'TKN_EMAIL_885b11ej';

describe('finishedPart: what of a cut answer is stored', () => {
  it('ends at the last token when nothing finished follows it', () => {
    assert.equal(finishedPart(`Write to ${TOKEN} or pay to IBAN DE89 3704 0044`), `Write to ${TOKEN}`);
    assert.equal(finishedPart(`Write to ${TOKEN}`), `Write to ${TOKEN}`);
  });

  it('never ends in a token cut short (no prefix of a suffix ends in its closing letter)', () => {
    for (let n = 1; n < TOKEN.length; n++) {
      assert.equal(finishedPart(`Done. Write to ${TOKEN.slice(0, n)}`), 'Done.', TOKEN.slice(0, n));
    }
  });

  it('ends at the last sentence end or line break after the last token', () => {
    assert.equal(finishedPart(`${TOKEN} is right. Call +41 79 98`), `${TOKEN} is right.`);
    assert.equal(finishedPart('First line\nCall +41 79 98'), 'First line');
    assert.equal(finishedPart('Is it? Mail bob.smith@corp.'), 'Is it?');
  });

  it('keeps nothing of text with none of them, and no full stop inside a value counts', () => {
    assert.equal(finishedPart('Pay to IBAN DE89 3704 0044'), '');
    assert.equal(finishedPart('Mail bob.smith@corp.example.'), '');
    assert.equal(finishedPart(''), '');
  });
});

describe('isCutFinish: which finish reasons mean the answer was cut', () => {
  it('only stop, eos (Together), tool_calls and function_call mean finished; no reason is not a cut', () => {
    for (const r of ['stop', 'eos', 'tool_calls', 'function_call', null, undefined, ''])
      assert.equal(isCutFinish(r), false, `${r}`);
  });

  it('every other reason is a cut, one it does not know included (fail closed)', () => {
    for (const r of ['length', 'content_filter', 'model_length', 'error', 'pause_turn', 'anything_new']) {
      assert.equal(isCutFinish(r), true, r);
    }
  });
});
