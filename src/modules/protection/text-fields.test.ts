import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../providers/index.js';
import { textFieldsOf } from './text-fields.js';

describe('textFieldsOf', () => {
  it('finds every text field and writes tool-call arguments back as valid JSON', () => {
    const req: ChatRequest = {
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part' },
            { type: 'image_url', image_url: { url: 'data:x' } },
            { type: 'thinking', thinking: 'keep', signature: 's' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'a',
              type: 'function',
              function: { name: 'f', arguments: '{"to":"x","list":["y",{"z":"w"}],"n":3}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'result' },
      ],
    };
    const { fields, commit } = textFieldsOf(req);
    assert.deepEqual(
      fields.map((f) => f.text),
      ['sys', 'part', 'x', 'y', 'w', 'result'],
    );
    for (const f of fields) f.set(`<${f.text}>`);
    commit();
    assert.equal(req.messages[0]?.content, '<sys>');
    const parts = req.messages[1]?.content as Array<Record<string, unknown>>;
    assert.equal(parts[0]?.['text'], '<part>');
    assert.equal(parts[2]?.['thinking'], 'keep');
    assert.deepEqual(JSON.parse(req.messages[2]?.tool_calls?.[0]?.function.arguments ?? ''), {
      to: '<x>',
      list: ['<y>', { z: '<w>' }],
      n: 3,
    });
    assert.equal(req.messages[3]?.content, '<result>');
  });

  it('tokenizes arguments that are not JSON as plain text', () => {
    const req: ChatRequest = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: 'not json' } }],
        },
      ],
    };
    const { fields } = textFieldsOf(req);
    assert.equal(fields.length, 1);
    fields[0]?.set('changed');
    assert.equal(req.messages[0]?.tool_calls?.[0]?.function.arguments, 'changed');
  });
});
