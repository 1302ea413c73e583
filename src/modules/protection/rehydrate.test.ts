import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTokenMap } from '../../engines/dlp/index.js';
import type { ChatChunk, ChatResponse } from '../providers/index.js';
import { rehydrateJson } from './json-rehydrate.js';
import { ChunkRehydrator, rehydrateResponse } from './rehydrate.js';

const TOKEN = 'TKN_NAME_0123abcg';
const VALUE = 'Zoë "Z" Müller\\';
const map = () => createTokenMap([{ token: TOKEN, type: 'NAME', value: VALUE }]);

function chunkOf(delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** Feeds `pieces` through a rehydrator the way the proxy does and joins what comes out. */
function run(pieces: ChatChunk[]): { content: string; args: string; sent: number; restored: number } {
  const r = new ChunkRehydrator(map());
  let content = '';
  let args = '';
  let sent = 0;
  const take = (c: ChatChunk) => {
    sent++;
    for (const ch of c.choices) {
      content += ch.delta.content ?? '';
      for (const tc of ch.delta.tool_calls ?? []) args += tc.function?.arguments ?? '';
    }
  };
  for (const p of pieces) if (r.transform(p)) take(p);
  const tail = r.finish(pieces[pieces.length - 1]);
  if (tail) take(tail);
  return { content, args, sent, restored: r.restored };
}

describe('ChunkRehydrator', () => {
  const text = `Hello ${TOKEN}, and again ${TOKEN}.`;

  it('restores content tokens split at every boundary, with and without a finishing chunk', () => {
    for (let a = 1; a < text.length; a++) {
      for (const withFinish of [true, false]) {
        const pieces = [
          chunkOf({ role: 'assistant', content: '' }),
          chunkOf({ content: text.slice(0, a) }),
          chunkOf({ content: text.slice(a) }),
        ];
        if (withFinish) pieces.push(chunkOf({}, 'stop'));
        const out = run(pieces);
        assert.equal(out.content, `Hello ${VALUE}, and again ${VALUE}.`, `split at ${a}`);
        assert.equal(out.restored, 2);
      }
    }
  });

  it('restores tool-call arguments with JSON escaping, split at every boundary', () => {
    const json = JSON.stringify({ who: TOKEN, n: 1 });
    for (let a = 1; a < json.length; a++) {
      const out = run([
        chunkOf({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }],
        }),
        chunkOf({ tool_calls: [{ index: 0, function: { arguments: json.slice(0, a) } }] }),
        chunkOf({ tool_calls: [{ index: 0, function: { arguments: json.slice(a) } }] }),
        chunkOf({}, 'tool_calls'),
      ]);
      assert.deepEqual(JSON.parse(out.args), { who: VALUE, n: 1 }, `split at ${a}`);
    }
  });

  it('drops chunks whose only text is held back, and keeps usage-only chunks', () => {
    const r = new ChunkRehydrator(map());
    assert.equal(r.transform(chunkOf({ content: 'TKN_NA' })), false);
    const usage: ChatChunk = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    assert.equal(r.transform(usage), true);
  });
});

describe('rehydrateResponse', () => {
  it('restores message text and tool-call arguments', () => {
    const res: ChatResponse = {
      id: 'r',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: `Dear ${TOKEN}`,
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'f', arguments: JSON.stringify({ to: TOKEN }) },
              },
            ],
          },
        },
      ],
    };
    assert.equal(rehydrateResponse(res, map()), 2);
    assert.equal(res.choices[0]?.message.content, `Dear ${VALUE}`);
    assert.deepEqual(JSON.parse(res.choices[0]?.message.tool_calls?.[0]?.function.arguments ?? ''), {
      to: VALUE,
    });
  });
});

describe('rehydrateJson: keys', () => {
  it('restores a token in a key (an echoed metadata map), keeping the keys in their order; other objects untouched', () => {
    const event = {
      type: 'response.completed',
      response: {
        metadata: { plan: 'gold', [TOKEN]: `for ${TOKEN}`, [`x ${TOKEN.toLowerCase()}`]: '1', zone: 'eu' },
        output: [{ type: 'message', content: [{ type: 'output_text', text: 'no token' }] }],
      },
    };
    const output = event.response.output;
    // One token in a value, one in each of two keys (a lower-cased label token too).
    assert.equal(rehydrateJson(event, map()), 3);
    assert.deepEqual(Object.entries(event.response.metadata), [
      ['plan', 'gold'],
      [VALUE, `for ${VALUE}`],
      [`x ${VALUE}`, '1'],
      ['zone', 'eu'],
    ]);
    assert.equal(event.response.output, output);
  });

  it('a key whose restored name another key already has keeps its token: no value is dropped', () => {
    const obj: Record<string, unknown> = { [VALUE]: 'written in clear', [TOKEN]: 'from the token' };
    assert.equal(rehydrateJson(obj, map()), 0);
    assert.deepEqual(Object.entries(obj), [
      [VALUE, 'written in clear'],
      [TOKEN, 'from the token'],
    ]);
  });

  it('a key restored to __proto__-like text is an own property, never a prototype', () => {
    const proto = createTokenMap([{ token: TOKEN, type: 'NAME', value: '__proto__' }]);
    const obj: Record<string, unknown> = { [TOKEN]: { polluted: true } };
    rehydrateJson(obj, proto);
    assert.ok(Object.hasOwn(obj, '__proto__'));
    assert.equal((obj as { polluted?: boolean }).polluted, undefined);
  });
});

describe('rehydrateJson: data', () => {
  it("restores the items of a list answer ({object: 'list', data: [...]}); a `data` string stays opaque", () => {
    const list = {
      object: 'list',
      data: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `Write to ${TOKEN}` }] }],
    };
    assert.equal(rehydrateJson(list, map()), 1);
    assert.equal(list.data[0]?.content[0]?.text, `Write to ${VALUE}`);
    // Base64 bytes (Gemini inlineData) are never read as text.
    const media = { inlineData: { mimeType: 'image/png', data: `iVBOR${TOKEN}` } };
    assert.equal(rehydrateJson(media, map()), 0);
    assert.equal(media.inlineData.data, `iVBOR${TOKEN}`);
  });
});

describe('ChunkRehydrator: refusals', () => {
  it('restores a token split across refusal deltas (found by the stream fuzz)', () => {
    const r = new ChunkRehydrator(map());
    const pieces = [
      chunkOf({ role: 'assistant', refusal: "I can't write to " }),
      chunkOf({ refusal: TOKEN.slice(0, 7) }),
      chunkOf({ refusal: `${TOKEN.slice(7)}.` }),
      chunkOf({}, 'stop'),
    ];
    const sent: string[] = [];
    for (const p of pieces) {
      if (!r.transform(p)) continue;
      const refusal = p.choices[0]?.delta.refusal;
      if (typeof refusal === 'string' && refusal !== '') sent.push(refusal);
    }
    assert.equal(sent.join(''), `I can't write to ${VALUE}.`);
    assert.ok(!sent.some((s) => s.includes('TKN')));
    assert.equal(r.restored, 1);
  });
});
