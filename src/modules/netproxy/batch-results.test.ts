import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTokenMap } from '../../engines/dlp/index.js';
import { JsonlRehydrator } from './batch-results.js';

const TOKEN = 'TKN_EMAIL_0123456g';
const VALUE = 'anna.müller@example.ch';
const map = createTokenMap([{ token: TOKEN, type: 'EMAIL', value: VALUE }]);

const line = (n: number, text: string, extra: object = {}) =>
  JSON.stringify({
    custom_id: `r${n}`,
    result: {
      type: 'succeeded',
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'tool_use', id: `tu_${n}`, name: 'send', input: { to: TOKEN, note: `für ${TOKEN}` } },
        ],
        ...extra,
      },
    },
  });

/** The rehydrator's output for `input` cut into pieces of `size` bytes. */
function run(input: Buffer, size: number, limit = 1 << 20): { out: string; r: JsonlRehydrator } {
  const r = new JsonlRehydrator(map, limit);
  const parts: Buffer[] = [];
  for (let at = 0; at < input.length; at += size) parts.push(...r.push(input.subarray(at, at + size)));
  parts.push(...r.end());
  return { out: Buffer.concat(parts).toString('utf8'), r };
}

// Spaced as no serializer writes it: a line without a token must go out as its own bytes.
const PLAIN =
  '{"custom_id": "r1", "result": {"type": "succeeded", "message": {"content": [{"type": "text", "text": "nothing here"}]}}}';

describe('batch results: JSONL restored line by line', () => {
  const file = `${[
    line(0, `Write to ${TOKEN} — ok`),
    PLAIN,
    JSON.stringify({ custom_id: 'r2', result: { type: 'errored', error: { type: 'x', message: TOKEN } } }),
    line(3, `Ünïcödé ${TOKEN}`),
  ].join('\n')}\n`;
  const bytes = Buffer.from(file);

  it('every cut of the file (a line, a token or a character split across chunks) gives the same lines', () => {
    const whole = run(bytes, bytes.length).out;
    for (let size = 1; size <= 64; size++) assert.equal(run(bytes, size).out, whole, `pieces of ${size}`);
    const lines = whole.split('\n');
    assert.equal(lines.length, 5);
    assert.equal(lines[4], '');
    const first = JSON.parse(lines[0] as string);
    assert.equal(first.result.message.content[0].text, `Write to ${VALUE} — ok`);
    assert.deepEqual(first.result.message.content[1].input, { to: VALUE, note: `für ${VALUE}` });
    // A line without a token goes out as its own bytes; an errored result is not a message: left.
    assert.equal(lines[1], PLAIN);
    assert.match(lines[2] as string, new RegExp(TOKEN));
    assert.equal(JSON.parse(lines[3] as string).result.message.content[0].text, `Ünïcödé ${VALUE}`);
    assert.equal(run(bytes, 7).r.restored, 6);
  });

  it('a last line without a newline and CRLF lines are kept as they end', () => {
    const crlf = Buffer.from(`${line(0, TOKEN)}\r\n${line(1, TOKEN)}`);
    const { out } = run(crlf, 5);
    const [a, b] = out.split('\r\n');
    assert.equal(JSON.parse(a as string).result.message.content[0].text, VALUE);
    assert.equal(JSON.parse(b as string).result.message.content[0].text, VALUE);
    assert.ok(!out.endsWith('\n'));
  });

  it('a line past the limit is relayed as it came, counted, and the lines after it are still restored', () => {
    const long = line(1, `${TOKEN} ${'x'.repeat(500)}`);
    const input = Buffer.from(`${line(0, TOKEN)}\n${long}\n${line(2, TOKEN)}\n`);
    for (const size of [3, 50, 1000]) {
      const { out, r } = run(input, size, 400);
      const lines = out.split('\n');
      assert.equal(lines[1], long, `pieces of ${size}`);
      assert.equal(JSON.parse(lines[0] as string).result.message.content[0].text, VALUE);
      assert.equal(JSON.parse(lines[2] as string).result.message.content[0].text, VALUE);
      assert.equal(r.oversized, 1);
      assert.equal(r.restored, 6);
    }
  });
});
