import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndirectText } from './prompt-texts.js';
import { packResent } from './protection.service.js';

// The injection check's bound on analyses per request: new texts one each, resent texts (a Responses agent
// loop's every earlier output) joined into groups once they outnumber the room left, never dropped.

const texts = (n: number, source: IndirectText['source'], resent: boolean, tag: string): IndirectText[] =>
  Array.from({ length: n }, (_, i) => ({ text: `${tag} ${i}`, source, ...(resent ? { resent: true } : {}) }));

describe('packResent', () => {
  it('leaves the texts as they are while the resent ones fit the room', () => {
    const all = [...texts(3, 'tool', false, 'new'), ...texts(5, 'tool', true, 'old')];
    assert.deepEqual(packResent(all, 5), all);
  });

  it('joins resent texts into groups within the room, every text in exactly one group of its source', () => {
    const all = [
      ...texts(1_200, 'tool', true, 'tool-old'),
      ...texts(300, 'document', true, 'doc-old'),
      ...texts(40, 'tool', false, 'new'),
    ];
    const room = 960;
    const out = packResent(all, room);
    const fresh = out.filter((t) => t.resent !== true);
    assert.deepEqual(fresh, texts(40, 'tool', false, 'new'), 'new texts stay one analysis each');
    const groups = out.filter((t) => t.resent === true);
    assert.ok(groups.length <= room, `${groups.length} groups for a room of ${room}`);
    for (const source of ['tool', 'document'] as const) {
      const tag = source === 'tool' ? 'tool-old' : 'doc-old';
      const read = groups
        .filter((g) => g.source === source)
        .flatMap((g) => g.text.split('\n\n'))
        .sort();
      const sent = all
        .filter((t) => t.resent && t.source === source)
        .map((t) => t.text)
        .sort();
      assert.deepEqual(read, sent, `every resent ${tag} text read once, with its own source`);
    }
  });

  it('keeps one group per source when no room is left', () => {
    const all = [...texts(10, 'tool', true, 'a'), ...texts(10, 'document', true, 'b')];
    const out = packResent(all, 0);
    assert.deepEqual(
      out.map((t) => t.source),
      ['tool', 'document'],
    );
  });
});
