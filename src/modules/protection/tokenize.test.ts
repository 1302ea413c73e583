import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../engines/dlp/index.js';
import type { DlpSettings, Vault } from '../dlp/index.js';
import { foundCacheStats, tokenizeFields } from './tokenize.js';
import type { TextField } from './text-fields.js';

/** A vault that records what detection handed it and replaces each entity with its type. */
function fakeVault() {
  const calls: Entity[][] = [];
  const vault = {
    async tokenizeParts(_orgId: string, parts: Array<{ text: string; entities?: Entity[] }>) {
      const entities = parts.flatMap((p) => p.entities ?? []);
      calls.push(entities);
      const tokenized = parts.map((p) => {
        let out = p.text;
        for (const e of [...(p.entities ?? [])].sort((a, b) => b.start - a.start)) {
          out = `${out.slice(0, e.start)}[${e.type}]${out.slice(e.end)}`;
        }
        return out;
      });
      return {
        sessionId: 's',
        tokenized,
        entities,
        tokens: entities.map((e) => e.type),
        session: { id: 's', orgId: 'o', key: new Uint8Array(32), map: new Map(), expiresAt: '' },
      };
    },
  } as unknown as Vault;
  return { vault, calls };
}

function field(text: string): TextField & { value: string } {
  return {
    name: 'messages[0].content',
    text,
    value: text,
    set(v: string) {
      this.value = v;
    },
  };
}

describe('tokenizeFields', () => {
  const text = `Turn ${Date.now()}: mail anna.keller@example.com or call +41 44 668 18 00.`;

  it('answers a text seen before from its cache, per settings, with the values read back from the text', async () => {
    const { vault, calls } = fakeVault();
    const all: DlpSettings = {};
    const noEmail: DlpSettings = { ignoreTypes: ['EMAIL'] };

    const before = foundCacheStats();
    const first = field(text);
    await tokenizeFields(vault, 'o', [first], all, {});
    const again = field(text);
    await tokenizeFields(vault, 'o', [again], {}, {});
    const after = foundCacheStats();
    // Detected once, answered from the cache the second time.
    assert.deepEqual([after.misses - before.misses, after.hits - before.hits], [1, 1]);
    assert.equal(first.value, again.value);
    assert.deepEqual(calls[1], calls[0]);
    assert.deepEqual(
      calls[0]?.map((e) => [e.type, e.value]),
      [
        ['EMAIL', 'anna.keller@example.com'],
        ['PHONE', '+41 44 668 18 00'],
      ],
    );

    // The same text under other settings is not answered from the first settings' entry.
    const filtered = field(text);
    await tokenizeFields(vault, 'o', [filtered], noEmail, {});
    assert.deepEqual(
      calls[2]?.map((e) => e.type),
      ['PHONE'],
    );
    assert.match(filtered.value, /anna\.keller@example\.com/);
    // An equal settings object, loaded afresh, shares the entry.
    const beforeEqual = foundCacheStats();
    await tokenizeFields(vault, 'o', [field(text)], { ignoreTypes: ['EMAIL'] }, {});
    assert.deepEqual(calls[3], calls[2]);
    assert.equal(foundCacheStats().hits - beforeEqual.hits, 1);
  });

  it('keeps a text that is hit again while newer texts pass through (least recently used goes first)', async () => {
    const { vault } = fakeVault();
    const history = `History ${Date.now()}: we reviewed the plan.`;
    await tokenizeFields(vault, 'o', [field(history)], {}, {});
    const before = foundCacheStats();
    // More new texts than the cache holds (5,000), the history asked for again between them.
    for (let i = 0; i < 5_200; i++) {
      await tokenizeFields(vault, 'o', [field(`New turn ${i} ${Date.now()}`), field(history)], {}, {});
    }
    const after = foundCacheStats();
    assert.equal(after.hits - before.hits, 5_200, 'the history was answered from the cache every time');
    assert.equal(after.misses - before.misses, 5_200, 'each new turn was detected once');
  });

  it('writes nothing for a request without personal data', async () => {
    const { vault, calls } = fakeVault();
    const outcome = await tokenizeFields(vault, 'o', [field('Please summarise the plan.')], {}, {});
    assert.equal(outcome.session, null);
    assert.equal(calls.length, 0);
  });
});
