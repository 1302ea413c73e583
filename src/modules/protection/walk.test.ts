import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../providers/index.js';
import { AppError } from '../../platform/errors/index.js';
import { type BodyFormat, requestFields } from './rules.js';
import type { TextField } from './text-fields.js';

/** A chat request with one assistant tool call whose arguments are `args`. */
function withArguments(args: string): ChatRequest {
  return {
    model: 'm',
    messages: [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: args } }],
      },
    ],
  };
}
const argsOf = (req: ChatRequest) => req.messages[0]?.tool_calls?.[0]?.function.arguments;

describe('requestFields, chat completions (the provider proxy and the network proxy)', () => {
  it('finds every string but the structural and signed ones, and writes tool-call arguments back', () => {
    const req: ChatRequest = {
      model: 'm',
      user: 'u',
      metadata: { k: 'meta' },
      messages: [
        { role: 'system', content: 'sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part' },
            { type: 'image_url', image_url: { url: 'data:x' } },
            { type: 'thinking', thinking: 'keep', signature: 's' },
            { type: 'file', file: { file_id: 'file-1', filename: 'name.pdf' } },
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
              thought_signature: 'sig',
            },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'result' },
      ],
    };
    const { fields, commit } = requestFields('openai-chat', req);
    assert.deepEqual(
      fields.map((f) => [f.name, f.text]),
      [
        ['user', 'u'],
        ['metadata.k', 'meta'],
        ['metadata.k (key)', 'k'],
        ['messages[0].content', 'sys'],
        ['messages[1].content[0].text', 'part'],
        ['messages[1].content[3].file.filename', 'name.pdf'],
        ['messages[2].tool_calls[0].function.arguments.to', 'x'],
        ['messages[2].tool_calls[0].function.arguments.list[0]', 'y'],
        ['messages[2].tool_calls[0].function.arguments.list[1].z', 'w'],
        ['messages[3].content', 'result'],
      ],
    );
    for (const f of fields) f.set(`<${f.text}>`);
    commit();
    assert.equal(req.messages[0]?.content, '<sys>');
    const parts = req.messages[1]?.content as Array<Record<string, unknown>>;
    assert.equal(parts[0]?.['text'], '<part>');
    assert.equal(parts[2]?.['thinking'], 'keep');
    assert.equal(
      req.messages[2]?.tool_calls?.[0]?.function.arguments,
      '{"to":"<x>","list":["<y>",{"z":"<w>"}],"n":3}',
    );
    assert.equal(req.messages[3]?.content, '<result>');
  });

  it('rewrites only the string literals that changed: numbers, spacing, escapes and keys stay as written', () => {
    const args =
      '{ "id" :12345678901234567890,\n  "to":"a@b.example" , "k\\u0065y": ["same", "x\\"y"], "e": 1.50e+3 }';
    const req = withArguments(args);
    const { fields, commit } = requestFields('openai-chat', req);
    assert.deepEqual(
      fields.map((f) => f.text),
      ['a@b.example', 'same', 'x"y'],
    );
    fields[0]?.set('T"1');
    fields[2]?.set('x"y');
    commit();
    assert.equal(argsOf(req), args.replace('"a@b.example"', '"T\\"1"'));
    const untouched = withArguments(args);
    const again = requestFields('openai-chat', untouched);
    for (const f of again.fields) f.set(f.text);
    again.commit();
    assert.equal(argsOf(untouched), args, 'nothing changed: not one byte rewritten');
  });

  it('rewrites the body text at the changed literals only: numbers beyond 2^53, spacing, escapes and key order stay as sent', () => {
    const source = [
      '{ "seed" : 12345678901234567890, "temperature":1.0,"top_p":1e0,',
      '  "messages" : [ {"role":"user","content":"Mail a@b.example","name":"caf\\u00e9"},',
      '    {"role":"user","content":"x\\"y\\/z"} ],',
      '  "zz": {"n": 18446744073709551615}, "1": "first by number" }',
    ].join('\n');
    const field = (fields: TextField[], text: string) => {
      const f = fields.find((x) => x.text === text);
      assert.ok(f, `a field holds ${text}`);
      return f;
    };
    const body = JSON.parse(source);
    const { fields, commit, rewrite } = requestFields('openai-chat', body);
    // Nothing set: the text itself.
    assert.equal(rewrite(source), source);
    field(fields, 'Mail a@b.example').set('Mail TKN_EMAIL_1');
    // Set to what it was: an escaped literal, in a changed message too, is left as written.
    field(fields, 'café').set('café');
    field(fields, 'x"y/z').set('x"y/z');
    commit();
    const out = rewrite(source);
    assert.equal(out, source.replace('"Mail a@b.example"', '"Mail TKN_EMAIL_1"'));
    assert.deepEqual(JSON.parse(out), { ...JSON.parse(source), messages: body.messages });
    // A changed literal written with escapes is re-encoded from its new value (é raw, not \u00e9).
    const again = JSON.parse(source);
    const walked = requestFields('openai-chat', again);
    field(walked.fields, 'café').set('TKN_NAME_2 café');
    field(walked.fields, 'x"y/z').set('x"TKN_NAME_3/z');
    walked.commit();
    assert.equal(
      walked.rewrite(source),
      source.replace('"caf\\u00e9"', '"TKN_NAME_2 café"').replace('"x\\"y\\/z"', '"x\\"TKN_NAME_3/z"'),
    );
  });

  it('rewrites the text of a body of every shape to what the walk set: integer-like and escaped keys, nested arrays, trailing backslashes', () => {
    const source = [
      '{"model":"m","2":"two","10":["ten",{"k":"v\\\\"}],"a\\u0062":[["x",["y\\\\\\\\"]],[]],',
      ' "messages":[{"role":"user","content":"say \\"hi\\" \\\\"},{"role":"user","content":""}],',
      ' "metadata":{"9":"nine","\\u006b":"kay"},"n":[1,2.50,-0e0]}',
    ].join('');
    for (const every of [1, 2, 3]) {
      const body = JSON.parse(source);
      const { fields, rewrite } = requestFields('openai-chat', body);
      assert.equal(fields.length, 10);
      fields.forEach((f, i) => {
        if (i % every === 0) f.set(`<${f.text}>`);
      });
      const out = rewrite(source);
      // What the provider reads is what the walk wrote into the body, keys renamed included.
      assert.deepEqual(JSON.parse(out), body);
      assert.match(out, /"n":\[1,2\.50,-0e0\]\}$/);
    }
  });

  it('rewrites tool-call arguments inside the body text: only the arguments literal changes', () => {
    const args = '{"to":"a@b.example","id":12345678901234567890}';
    const source = JSON.stringify(withArguments(args)).replace(
      '"model":"m"',
      '"model":"m","seed":12345678901234567890',
    );
    const body = JSON.parse(source);
    const { fields, commit, rewrite } = requestFields('openai-chat', body);
    fields[0]?.set('TKN_EMAIL_1');
    commit();
    const out = rewrite(source);
    assert.equal(
      out,
      source.replace(JSON.stringify(args), JSON.stringify(args.replace('a@b.example', 'TKN_EMAIL_1'))),
    );
    assert.match(out, /"seed":12345678901234567890,/);
    assert.match(out, /\\"id\\":12345678901234567890/);
  });

  it('metadata keys are data: a tokenized key is renamed in the body and in its text, after its value was set', () => {
    const source =
      '{"model":"m","metadata":{"plan":"vip","jane@x.example":"jane@x.example","n":"1"},"messages":[]}';
    const body = JSON.parse(source);
    const { fields, commit, rewrite } = requestFields('openai-chat', body);
    assert.deepEqual(
      fields.map((f) => f.name),
      [
        'metadata.plan',
        'metadata.plan (key)',
        'metadata.jane@x.example',
        'metadata.jane@x.example (key)',
        'metadata.n',
        'metadata.n (key)',
      ],
    );
    for (const f of fields) if (f.text === 'jane@x.example') f.set('TKN_EMAIL_1');
    commit();
    assert.deepEqual(body.metadata, { plan: 'vip', n: '1', TKN_EMAIL_1: 'TKN_EMAIL_1' });
    assert.equal(rewrite(source), source.replaceAll('jane@x.example', 'TKN_EMAIL_1'));
  });

  it('keys below a free-form map are data at every depth: a nested metadata, label or document key holding an e-mail never goes up in clear', () => {
    const cases: Array<[BodyFormat, string]> = [
      ['openai-chat', '{"model":"m","messages":[],"metadata":{"team":{"jane@x.example":"lead"}}}'],
      ['anthropic-messages', '{"model":"m","messages":[],"metadata":{"l":[{"jane@x.example":1}]}}'],
      ['gemini-generate', '{"contents":[],"labels":{"o":{"p":{"jane@x.example":"x"}}}}'],
      // Cohere renders a document's data, nested objects included, for the model to read.
      ['cohere-chat', '{"messages":[],"documents":[{"data":{"people":[{"jane@x.example":"author"}]}}]}'],
    ];
    for (const [format, source] of cases) {
      const body = JSON.parse(source);
      const { fields, rewrite } = requestFields(format, body);
      const key = fields.find((f) => f.text === 'jane@x.example');
      assert.ok(key, `${format}: the nested key is a field`);
      assert.equal(key.noBlock, format !== 'cohere-chat', format);
      key.set('TKN_EMAIL_1');
      const out = rewrite(source);
      assert.equal(
        out,
        source.replace('jane@x.example', format === 'gemini-generate' ? 'tkn_email_1' : 'TKN_EMAIL_1'),
      );
      assert.deepEqual(JSON.parse(out), body);
    }
  });

  it('refuses two map keys that would become one key once tokenized (400), rather than merge them', () => {
    const body = { model: 'm', metadata: { 'Anna@x.example': '1', 'anna@x.example': '2' }, messages: [] };
    const { fields } = requestFields('openai-chat', body);
    const keysOf = fields.filter((f) => f.name.endsWith('(key)'));
    keysOf[0]?.set('TKN_EMAIL_1');
    assert.throws(
      () => keysOf[1]?.set('TKN_EMAIL_1'),
      (err: unknown) =>
        err instanceof AppError && err.code === 'invalid_request' && /would be one key/.test(err.message),
    );
  });

  it('Gemini labels: keys and values are data, their tokens written in lower case (the label charset)', () => {
    const source = '{"contents":[],"labels":{"team":"marta-lindqvist","marta":"x"}}';
    const body = JSON.parse(source);
    const { fields, rewrite } = requestFields('gemini-generate', body);
    assert.deepEqual(
      fields.map((f) => [f.name, f.noBlock === true]),
      [
        ['labels.team', true],
        ['labels.team (key)', true],
        ['labels.marta', true],
        ['labels.marta (key)', true],
      ],
    );
    fields[0]?.set('TKN_NAME_0a1b2c3g');
    fields[3]?.set('TKN_NAME_0a1b2c3g');
    // A value or key left as it was is not lower-cased.
    fields[2]?.set('x');
    assert.equal(
      rewrite(source),
      '{"contents":[],"labels":{"team":"tkn_name_0a1b2c3g","tkn_name_0a1b2c3g":"x"}}',
    );
  });

  it('names a string in an array after its index, and reads JSON text nested up to 64 levels', () => {
    // 63 arrays inside the outer object: 64 levels, the most a JSON text may nest (as a body).
    const deep = `${'['.repeat(63)}"deep"${']'.repeat(63)}`;
    const req = withArguments(`{"a":[1,{"b":2},"third"],"d":${deep}}`);
    const { fields, commit } = requestFields('openai-chat', req);
    assert.equal(fields[0]?.name, 'messages[0].tool_calls[0].function.arguments.a[2]');
    assert.equal(fields[1]?.text, 'deep');
    // A deep field is named by its last parts only, so naming every field stays linear in the body.
    assert.equal(fields[1]?.name, `…${'[0]'.repeat(12)}`);
    fields[1]?.set('changed');
    commit();
    assert.equal(argsOf(req), `{"a":[1,{"b":2},"third"],"d":${deep.replace('deep', 'changed')}}`);
  });

  it('refuses JSON text nested deeper than 64 levels with the spec error (400), as a body is', () => {
    const args = `{"d":${'['.repeat(64)}"deep"${']'.repeat(64)}}`;
    assert.throws(
      () => requestFields('openai-chat', withArguments(args)),
      (err: unknown) =>
        err instanceof AppError && err.code === 'invalid_request' && /nests deeper than 64/.test(err.message),
    );
  });

  it('marks end-user identifiers (user, safety_identifier, metadata values at any depth) as never blocking', () => {
    const req = {
      model: 'm',
      user: 'u',
      safety_identifier: 's',
      metadata: { a: { b: ['deep'] } },
      messages: [{ role: 'user', content: 'text' }],
    };
    const { fields } = requestFields('openai-chat', req);
    assert.deepEqual(
      fields.map((f) => [f.text, f.noBlock === true]),
      [
        ['u', true],
        ['s', true],
        ['deep', true],
        // metadata is a free-form map: its keys are data too, at every depth, and identifiers as well.
        ['b', true],
        ['a', true],
        ['text', false],
      ],
    );
  });

  it('schemas: data keywords (default, examples, example, enum, const) are text whatever their keys; properties named like keywords are schemas', () => {
    const parameters = {
      type: 'object',
      required: ['type'],
      properties: {
        // A property named `type`: a schema, whose own `type` is a keyword.
        type: { type: 'string', description: 'kind', enum: ['a'] },
        to: {
          type: 'string',
          pattern: '^p$',
          examples: [{ type: 'ex-type', format: 'ex-format' }],
          example: { required: 'ex-required' },
          default: { pattern: 'def-pattern', $ref: 'def-ref' },
          const: { propertyOrdering: 'const-ordering' },
        },
      },
      $defs: { addr: { type: 'string', format: 'email', title: 'Address' } },
    };
    const req = {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters } }],
    };
    const texts = requestFields('openai-chat', req).fields.map((f) => f.text);
    assert.deepEqual(texts.sort(), [
      'Address',
      'a',
      'const-ordering',
      'def-pattern',
      'def-ref',
      'ex-format',
      'ex-required',
      'ex-type',
      'kind',
      'x',
    ]);
  });

  it('tokenizes arguments that are not JSON as plain text', () => {
    const req = withArguments('not json');
    const { fields } = requestFields('openai-chat', req);
    assert.equal(fields.length, 1);
    fields[0]?.set('changed');
    assert.equal(argsOf(req), 'changed');
  });
});
