import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors/index.js';
import { duplicateKey, parseJsonBody } from './json-body.js';

const body = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const refusedWith = (message: RegExp) => (e: unknown) =>
  e instanceof AppError && e.code === 'invalid_request' && message.test(e.message);

describe('parseJsonBody', () => {
  it('accepts nesting up to 64 levels and refuses one more', () => {
    assert.deepEqual(parseJsonBody(body(`{"a":${nested(63)}}`)), { a: JSON.parse(nested(63)) });
    assert.throws(() => parseJsonBody(body(`{"a":${nested(64)}}`)), refusedWith(/nests deeper than 64/));
    assert.throws(() => parseJsonBody(body(nested(5000))), refusedWith(/nests deeper than 64/));
  });

  it('counts only brackets outside strings, escaped quotes included', () => {
    const inText = '{['.repeat(500);
    const parsed = parseJsonBody(body(JSON.stringify({ text: inText, quoted: `\\"${inText}` })));
    assert.deepEqual(parsed, { text: inText, quoted: `\\"${inText}` });
    // Many brackets in all, none deep: the full scan runs and lets it through.
    const wide = JSON.stringify({ list: Array.from({ length: 200 }, () => ({ a: [1] })) });
    assert.equal((parseJsonBody(body(wide)) as { list: unknown[] }).list.length, 200);
  });

  it('refuses empty bodies, invalid UTF-8, invalid JSON and prototype keys with their own messages', () => {
    assert.throws(() => parseJsonBody(Buffer.alloc(0)), refusedWith(/empty/));
    assert.throws(() => parseJsonBody(Buffer.from([0x7b, 0xff, 0x7d])), refusedWith(/UTF-8/));
    assert.throws(() => parseJsonBody(body('{"a":')), refusedWith(/not valid JSON/));
    assert.throws(() => parseJsonBody(body('{"__proto__":{"x":1}}')), refusedWith(/forbidden key/));
    assert.throws(
      () => parseJsonBody(body('{"constructor":{"prototype":{"x":1}}}')),
      refusedWith(/forbidden key/),
    );
  });

  it('drops one byte-order mark and refuses a second: the proxies send the text on, and it must be JSON as parsed', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    assert.deepEqual(parseJsonBody(Buffer.concat([bom, body('{"a":"b"}')])), { a: 'b' });
    assert.throws(
      () => parseJsonBody(Buffer.concat([bom, bom, body('{"a":"b"}')])),
      refusedWith(/not valid JSON/),
    );
  });

  it('refuses a key repeated in one object, escaped spellings included, and names it', () => {
    assert.throws(
      () => parseJsonBody(body('{"text":"a","text":"b"}')),
      refusedWith(/repeats the key 'text'/),
    );
    assert.throws(() => parseJsonBody(body('{"a":1,"\\u0061":2}')), refusedWith(/repeats the key 'a'/));
    assert.throws(
      () => parseJsonBody(body('{"m":[{"role":"user","role":"system"}]}')),
      refusedWith(/repeats the key 'role'/),
    );
    assert.throws(() => parseJsonBody(body('{"<x>":1,"<x>":2}')), refusedWith(/repeats the key in one/));
  });

  it('accepts the same key in different objects, and keys inside strings', () => {
    assert.equal(duplicateKey('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"\\"a\\":1,\\"a\\":2"}'), null);
    assert.equal(duplicateKey('{"a\\"":1,"a":2}'), null);
    assert.equal(duplicateKey('["a","a",{"x":"a","y":"a"}]'), null);
    assert.equal(duplicateKey('{"x":1,"y":{"z":[1,{"w":2}],"x":3},"y2":0,"x":4}'), 'x');
  });

  it('refuses a NUL in any string or key, naming its place, and only a real one', () => {
    assert.throws(
      () => parseJsonBody(body('{"messages":[{"role":"user","content":"a\\u0000b"}]}')),
      refusedWith(/NUL character .* in 'messages\[0\]\.content'/),
    );
    assert.throws(() => parseJsonBody(body('"\\u0000"')), refusedWith(/in the body/));
    assert.throws(() => parseJsonBody(body('{"a\\u0000":1}')), refusedWith(/in a key/));
    // An escaped backslash before "u0000" is a backslash and text; other control characters are text too.
    assert.deepEqual(parseJsonBody(body('{"p":"C:\\\\u0000","t":"a\\tb\\n"}')), {
      p: 'C:\\u0000',
      t: 'a\tb\n',
    });
  });
});
