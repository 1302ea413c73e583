import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createTokenMap, listEntityTypes, rehydrate, StreamingRehydrator, tokenize } from './index.js';
import { tokenFor } from './tokens.js';

const key = new TextEncoder().encode('session-key-1');
const TEXT =
  'Hi, my name is Sandra Keller (sandra.keller@example.ch), IBAN CH93 0076 2011 6238 5295 7, call +41 79 123 45 67.';

test('tokens have the TKN_<TYPE>_<suffix> form and round-trip exactly', () => {
  const map = createTokenMap();
  const r = tokenize(TEXT, map, key);
  assert.equal(r.tokens.length, 4);
  for (const t of r.tokens) {
    assert.match(t.token, /^TKN_[A-Z_]+_[0-9a-f]{7}[ghjkmnpqrstvwxyz]$/);
    assert.equal(r.tokenized.slice(t.start, t.end), t.token);
    assert.equal(t.isNew, true);
  }
  assert.ok(!r.tokenized.includes('Keller'));
  assert.deepEqual(rehydrate(r.tokenized, map), { text: TEXT, restored: 4, unknown: [] });
});

test('same value gives the same token across turns; different keys give different tokens', () => {
  const map = createTokenMap();
  const first = tokenize('Contact Sandra Keller today.', map, key);
  const second = tokenize('Did Sandra Keller answer?', map, key);
  assert.equal(first.tokens[0]!.token, second.tokens[0]!.token);
  assert.equal(second.tokens[0]!.isNew, false);
  // The vault can be reloaded from stored entries and keeps issuing the same tokens.
  const reloaded = createTokenMap([...map.byToken].map(([token, e]) => ({ token, ...e })));
  assert.equal(tokenize('Sandra Keller again', reloaded, key).tokens[0]!.token, first.tokens[0]!.token);
  const other = tokenize('Contact Sandra Keller today.', createTokenMap(), new TextEncoder().encode('other'));
  assert.notEqual(other.tokens[0]!.token, first.tokens[0]!.token);
});

test('formatting variants of one IBAN share a token', () => {
  const map = createTokenMap();
  const a = tokenize('IBAN CH93 0076 2011 6238 5295 7', map, key).tokens[0]!.token;
  const b = tokenize('IBAN CH9300762011623852957', map, key).tokens[0]!.token;
  assert.equal(a, b);
});

test('a suffix collision lengthens the suffix, and no token is a prefix of another', () => {
  const map = createTokenMap();
  const original = tokenFor(map, key, 'NAME', 'Anna Weber');
  // Force a collision: pretend another value already owns the token Anna Weber would get.
  const forced = createTokenMap([{ token: original.token, type: 'NAME', value: 'Someone Else' }]);
  const lengthened = tokenFor(forced, key, 'NAME', 'Anna Weber');
  assert.equal(lengthened.token.length, original.token.length + 1);
  assert.ok(!lengthened.token.startsWith(original.token));
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 40 }),
      (values) => {
        const m = createTokenMap();
        const tokens = values.map((v) => tokenFor(m, key, 'NAME', v).token);
        assert.equal(new Set(tokens).size, values.length);
        for (const a of tokens)
          for (const b of tokens) if (a !== b) assert.ok(!b.toUpperCase().startsWith(a.toUpperCase()));
      },
    ),
    { numRuns: 50 },
  );
});

test('tolerant rehydration: case, markdown escapes, brackets, quotes, glued endings', () => {
  const map = createTokenMap();
  const token = tokenize('Sandra Keller', map, key).tokens[0]!.token;
  const escaped = token.replace(/_/g, '\\_');
  const cases: Array<[string, string]> = [
    [token.toLowerCase(), 'Sandra Keller'],
    [`[${token}]`, '[Sandra Keller]'],
    [`"${token}"`, '"Sandra Keller"'],
    [`**${escaped}**`, '**Sandra Keller**'],
    [`${token}s office`, 'Sandra Kellers office'],
    [`${token}'s office`, "Sandra Keller's office"],
    [`_${token}_`, '_Sandra Keller_'],
  ];
  for (const [input, expected] of cases) assert.equal(rehydrate(input, map).text, expected, input);
  // A token inside a longer run of letters and digits is not ours.
  assert.equal(rehydrate(`X${token}`, map).restored, 0);
  assert.equal(rehydrate(`${token}9`, map).restored, 0);
});

test('unknown tokens are counted and left in place, never guessed across types', () => {
  const map = createTokenMap();
  const token = tokenize('Sandra Keller', map, key).tokens[0]!.token;
  const wrongType = token.replace('TKN_NAME_', 'TKN_EMAIL_');
  const r = rehydrate(`${wrongType} and TKN_NAME_0000000g`, map);
  assert.equal(r.restored, 0);
  assert.deepEqual(r.unknown, [wrongType, 'TKN_NAME_0000000g']);
  assert.equal(r.text, `${wrongType} and TKN_NAME_0000000g`);
});

test('JSON mode escapes restored values', () => {
  const map = createTokenMap([{ token: 'TKN_NAME_0123456g', type: 'NAME', value: 'Anna "Nan" Weber\\' }]);
  const out = rehydrate('{"to":"TKN_NAME_0123456g"}', map, { json: true }).text;
  assert.deepEqual(JSON.parse(out), { to: 'Anna "Nan" Weber\\' });
});

function streamed(
  map: ReturnType<typeof createTokenMap>,
  text: string,
  cuts: number[],
  json = false,
): string {
  const s = new StreamingRehydrator(map, { json });
  let out = '';
  let last = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    out += s.push(text.slice(last, c));
    last = c;
  }
  out += s.push(text.slice(last));
  return out + s.flush();
}

test('JSON mode: a token after a \\uXXXX escape is restored unless the escape is a letter or digit', () => {
  const map = createTokenMap([{ token: 'TKN_EMAIL_0123456g', type: 'EMAIL', value: 'anna@example.ch' }]);
  // Tool-call arguments written as Python's json.dumps writes them (ensure_ascii): "é", "日", an emoji and a
  // no-break space before a token are \u escapes that end in a digit or a letter, yet no letter precedes it.
  for (const before of ['caf\\u00e9', '\\u65e5', '\\ud83d\\ude00', '42\\u00a0', '\\\\\\u00e9']) {
    const args = `{"note":"${before}TKN_EMAIL_0123456g"}`;
    const want = { note: `${JSON.parse(`"${before}"`) as string}anna@example.ch` };
    assert.deepEqual(JSON.parse(rehydrate(args, map, { json: true }).text), want, args);
    for (let cut = 0; cut <= args.length; cut++)
      assert.deepEqual(JSON.parse(streamed(map, args, [cut], true)), want, `${args} cut at ${cut}`);
  }
  // "\u0041" is the letter A, and "\\\\n" an escaped backslash then the letter n: a letter precedes the token.
  for (const args of ['{"note":"\\u0041TKN_EMAIL_0123456g"}', '{"note":"\\\\nTKN_EMAIL_0123456g"}']) {
    assert.equal(rehydrate(args, map, { json: true }).text, args);
    for (let cut = 0; cut <= args.length; cut++)
      assert.equal(streamed(map, args, [cut], true), args, `cut at ${cut}`);
  }
});

test('streaming: a token split at every possible boundary is restored', () => {
  const map = createTokenMap();
  const r = tokenize(TEXT, map, key);
  for (let cut = 0; cut <= r.tokenized.length; cut++) {
    assert.equal(streamed(map, r.tokenized, [cut]), TEXT, `cut at ${cut}`);
  }
});

test('streaming equals whole rehydration for random texts and random chunkings (fast-check)', () => {
  const map = createTokenMap();
  tokenize(TEXT, map, key);
  const tokens = [...map.byToken.keys()];
  const piece = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(...tokens),
    fc.constantFrom(...tokens.map((t) => t.toLowerCase())),
    fc.constantFrom(...tokens.map((t) => t.replace(/_/g, '\\_'))),
    fc.constantFrom('TKN_', 'TKN_NAME_', 'TKN\\', 'T', ' ', '[', '"', 's', 'en', '9', '_', '\\', '\\n', 'x_'),
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.boolean(),
      (parts, rawCuts, json) => {
        const text = parts.join('');
        const cuts = rawCuts.map((c) => c % (text.length + 1));
        assert.equal(streamed(map, text, cuts, json), rehydrate(text, map, { json }).text);
      },
    ),
    { numRuns: Number(process.env.DLP_FC_RUNS ?? 1500) },
  );
});

test('streaming emits text that cannot start a token immediately and holds back at most one token', () => {
  const map = createTokenMap();
  const r = tokenize('Sandra Keller', map, key);
  const token = r.tokens[0]!.token;
  const s = new StreamingRehydrator(map);
  assert.equal(s.push('Hello there, '), 'Hello there, ');
  assert.equal(s.push(token.slice(0, 6)), '');
  assert.equal(s.push(token.slice(6)), '');
  assert.equal(s.push(' bye'), 'Sandra Keller bye');
  assert.equal(s.flush(), '');
  assert.equal(s.restored, 1);
  const long = new StreamingRehydrator(map);
  const emitted = long.push(`${'x'.repeat(200)} TKN_`);
  assert.ok(200 - emitted.length <= token.length * 3 + 4);
});

test('listEntityTypes names every built-in type with its domain', () => {
  const types = listEntityTypes();
  for (const t of [
    'NAME',
    'EMAIL',
    'PHONE',
    'IBAN',
    'CARD',
    'CVV',
    'AVS',
    'SSN',
    'NINO',
    'NIR',
    'PASSWORD',
    'API_KEY',
  ]) {
    assert.ok(
      types.some((x) => x.type === t && x.domain.length > 0),
      t,
    );
  }
});
