import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  estimateCost,
  estimateMessagesTokens,
  estimateTokens,
  findModel,
  listModels,
  PROVIDER_IDS,
} from '../index.js';

describe('model catalog', () => {
  const models = listModels();

  it('has well-formed rows with unique keys and a model for every provider', () => {
    const keys = new Set(models.map((m) => m.key));
    assert.equal(keys.size, models.length);
    for (const m of models) {
      assert.equal(m.key, `${m.provider}/${m.id}`);
      assert.ok(m.contextWindow > m.maxOutputTokens, m.key);
      assert.ok(m.inputPerMTok >= 0 && m.outputPerMTok >= 0, m.key);
      assert.equal(m.tier === 'offline', m.provider === 'parapet', m.key);
    }
    for (const id of PROVIDER_IDS)
      assert.ok(
        models.some((m) => m.provider === id),
        id,
      );
  });

  it('returns copies, so callers cannot corrupt it', () => {
    const list = listModels();
    list.pop();
    assert.equal(listModels().length, models.length);
    assert.throws(() => {
      (listModels()[0] as { inputPerMTok: number }).inputPerMTok = 0;
    }, TypeError);
  });

  it('finds by key first, then by bare id among available providers', () => {
    assert.equal(findModel('openai/gpt-4o-mini')?.provider, 'openai');
    assert.equal(findModel('openrouter/openai/gpt-4o-mini')?.provider, 'openrouter');
    assert.equal(findModel('gpt-4o-mini')?.provider, 'openai');
    assert.equal(findModel('gpt-4o-mini', ['azure'])?.provider, 'azure');
    assert.equal(findModel('gpt-4o-mini', ['anthropic']), undefined);
    assert.equal(findModel('no-such-model'), undefined);
  });

  it('estimates cost from the per-million prices', () => {
    const m = findModel('openai/gpt-4o-mini');
    assert.ok(m);
    const expected = (1000 * m.inputPerMTok + 500 * m.outputPerMTok) / 1e6;
    assert.ok(Math.abs(estimateCost(m, 1000, 500) - expected) < 1e-9);
    assert.equal(estimateCost(m, 0, 0), 0);
    const free = findModel('parapet-offline-echo');
    assert.ok(free);
    assert.equal(estimateCost(free, 1e6, 1e6), 0);
  });
});

describe('token estimate', () => {
  it('is zero for empty text and grows with length', () => {
    assert.equal(estimateTokens(''), 0);
    const short = estimateTokens('Hello world');
    assert.ok(short >= 2 && short <= 4, String(short));
    assert.ok(estimateTokens('Hello world. '.repeat(100)) > 200);
  });

  it('counts CJK characters heavier than Latin ones', () => {
    assert.ok(estimateTokens('你好世界你好世界') >= 8);
    assert.ok(estimateTokens('abcdefgh') <= 2);
  });

  it('adds message framing and tool-call arguments', () => {
    const text = estimateTokens('hello there');
    const total = estimateMessagesTokens([
      { role: 'user', content: 'hello there' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c', type: 'function', function: { name: 'lookup', arguments: '{"q":"something long"}' } },
        ],
      },
    ]);
    assert.ok(total > text + 8, String(total));
  });
});
