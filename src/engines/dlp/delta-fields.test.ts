import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anthropicDeltas, DeltaFields, type DeltaFormat, endsOf } from './delta-fields.js';
import { createTokenMap } from './token-map.js';

const TOKEN = 'TKN_EMAIL_0123456g';
const map = () => createTokenMap([{ token: TOKEN, type: 'EMAIL', value: 'a"b@example.ch' }]);
const ev = (text: string) => ({ delta: { text } });
const ref = (key: string) => ({ key, path: ['delta', 'text'] });

describe('DeltaFields: one streaming rehydrator per field', () => {
  it('holds the start of a token per field and never mixes two fields', () => {
    const f = new DeltaFields<string>(map());
    const a1 = ev('Mail TKN_EM');
    const b1 = ev('Other TKN_EMAIL_01');
    f.push(a1, ref('a'), 'A');
    f.push(b1, ref('b'), 'B');
    assert.deepEqual([a1.delta.text, b1.delta.text], ['Mail ', 'Other ']);
    const a2 = ev('AIL_0123456g.');
    f.push(a2, ref('a'), 'A2');
    assert.equal(a2.delta.text, 'a"b@example.ch.');
    assert.equal(f.restored, 1);
    // Field b ends on an event that is not its own: its held text comes back with its last event and meta.
    const released = f.release(['b'], a2);
    assert.deepEqual(
      released.map((r) => ({ key: r.key, rest: r.rest, meta: r.meta, template: r.template === b1 })),
      [{ key: 'b', rest: 'TKN_EMAIL_01', meta: 'B', template: true }],
    );
    assert.deepEqual(f.release('all', null), []);
  });

  it('a field ended by its own last event gets its held text appended there; nothing is returned', () => {
    const f = new DeltaFields<undefined>(map());
    const e = ev('Hi TKN_EMAIL');
    f.push(e, ref('a'), undefined);
    assert.equal(e.delta.text, 'Hi ');
    assert.deepEqual(f.release('all', e), []);
    assert.equal(e.delta.text, 'Hi TKN_EMAIL');
  });

  it('no string at the path: nothing is pushed or held', () => {
    const f = new DeltaFields<undefined>(map());
    assert.equal(f.push({ delta: { text: 3 } }, ref('a'), undefined), false);
    assert.deepEqual(f.release('all', null), []);
  });

  it('endsOf: without a rule, an event without deltas ends every field and one with deltas none', () => {
    const none: DeltaFormat = { deltas: () => [] };
    assert.equal(endsOf(none, {}, []), 'all');
    assert.deepEqual(endsOf(none, {}, [ref('a')]), []);
  });
});

describe('anthropicDeltas: the rule the network proxy and the extension share', () => {
  const delta = (d: object, index?: number) => ({
    type: 'content_block_delta',
    ...(index === undefined ? {} : { index }),
    delta: d,
  });

  it('text and tool input (JSON text) per block; a missing index is block 0', () => {
    assert.deepEqual(anthropicDeltas.deltas(delta({ type: 'text_delta', text: 'x' }, 2)), [
      { key: '2', path: ['delta', 'text'] },
    ]);
    assert.deepEqual(anthropicDeltas.deltas(delta({ type: 'input_json_delta', partial_json: '{"' })), [
      { key: '0', path: ['delta', 'partial_json'], json: true },
    ]);
    assert.deepEqual(anthropicDeltas.deltas(delta({ type: 'citations_delta', citation: {} }, 0)), []);
    assert.deepEqual(anthropicDeltas.deltas(delta({ type: 'text_delta', text: 3 }, 0)), []);
  });

  it('a block ends at its stop; message_delta, message_stop and error end all; nothing else ends a block', () => {
    const ends = (e: Record<string, unknown>) => endsOf(anthropicDeltas, e, []);
    assert.deepEqual(ends({ type: 'content_block_stop', index: 1 }), ['1']);
    assert.deepEqual(ends({ type: 'content_block_stop' }), ['0']);
    for (const type of ['message_delta', 'message_stop', 'error']) assert.equal(ends({ type }), 'all');
    for (const type of [
      'ping',
      'content_block_start',
      'message_start',
      'message_limit',
      'content_block_delta',
    ])
      assert.deepEqual(ends({ type, index: 0 }), [], type);
  });

  it('a tool input split inside a token is restored escaped for its JSON', () => {
    const f = new DeltaFields<undefined>(map());
    const out: string[] = [];
    for (const piece of ['{"to":"TKN_EMA', 'IL_0123456g"}']) {
      const e = delta({ type: 'input_json_delta', partial_json: piece }, 0);
      for (const r of anthropicDeltas.deltas(e)) f.push(e, r, undefined);
      out.push((e.delta as { partial_json: string }).partial_json);
    }
    assert.deepEqual(JSON.parse(out.join('')), { to: 'a"b@example.ch' });
  });
});

describe('DeltaFields: release by what the caller attached', () => {
  it('releases the fields whose attachment matches, and lists the open ones in the order they opened', () => {
    const f = new DeltaFields<{ choice: number }>(map());
    f.push(ev('A TKN_EM'), ref('1:content'), { choice: 1 });
    f.push(ev('B TKN_EMAIL'), ref('0:content'), { choice: 0 });
    assert.deepEqual(f.held(), [{ choice: 1 }, { choice: 0 }]);
    const out = f.release((m) => m.choice === 0, null);
    assert.deepEqual(
      out.map((r) => [r.key, r.rest]),
      [['0:content', 'TKN_EMAIL']],
    );
    assert.deepEqual(f.held(), [{ choice: 1 }]);
  });
});
