import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 as generator } from '../../../eval/dlp/corpus/random.js';
import { AppError } from '../../platform/errors/index.js';
import { jsonBodyText, parseJsonText } from '../../platform/http/index.js';
import { type BodyFormat, requestFields } from './rules.js';

// Differential test of the body rewrite (walk.ts, Walked.rewrite): for bodies of every format written in
// every valid way JSON allows (whitespace everywhere, every escape, keys equal only once decoded, numbers
// of every spelling, a BOM, JSON text in tool-call arguments written the same way), what a JSON parser
// reads from the rewritten text must be exactly what the walk inspected and set, and no datum a field
// was tokenized for may be left in it, raw or escaped. Seeded: a failure names its seed and case.

/** A JSON value with its spelling left to the writer: numbers keep the text they are written with. */
type Node =
  | { t: 'obj'; entries: Array<[string, Node]> }
  | { t: 'arr'; items: Node[] }
  | { t: 'str'; v: string }
  | { t: 'raw'; text: string };

const str = (v: string): Node => ({ t: 'str', v });
const arr = (...items: Node[]): Node => ({ t: 'arr', items });
/** An object from entries; a key equal to an earlier one once decoded is dropped (duplicates are refused). */
function obj(...entries: Array<[string, Node] | null>): Node {
  const seen = new Set<string>();
  const kept: Array<[string, Node]> = [];
  for (const e of entries) {
    if (e && !seen.has(e[0])) {
      seen.add(e[0]);
      kept.push(e);
    }
  }
  return { t: 'obj', entries: kept };
}

const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.0',
  '1.50',
  '1e5',
  '1E+5',
  '2.5e-3',
  '-12.0E0',
  '12345678901234567890',
  '18446744073709551615',
  '0.1000000000000000055511151231257827',
  '1e308',
  '5e-324',
];
const PIECES = [
  'hello',
  ' ',
  'é',
  'Ünïcødé',
  '日本語',
  '😀',
  '"',
  '\\',
  '/',
  '\\"',
  '\n',
  '\t',
  '\r',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ud83d',
  'tkn',
  ':',
  ',',
  '{',
  ']',
  'a',
];

class Writer {
  private marker = 0;
  /** Every marker written, whatever the position (kept positions keep theirs). */
  readonly markers: string[] = [];
  constructor(private readonly rnd: () => number) {}

  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }

  /** A unique stand-in for a personal datum: the fake tokenizer below replaces each with a token. */
  datum(): string {
    const m = `PII${this.marker++}X`;
    this.markers.push(m);
    return m;
  }

  /** A string made of awkward pieces, often with a datum or two in it. */
  text(): string {
    let s = '';
    const n = this.int(6);
    for (let i = 0; i < n; i++) s += this.chance(0.3) ? this.datum() : this.pick(PIECES);
    if (this.chance(0.02)) s += 'x'.repeat(5_000 + this.int(10_000)) + this.datum();
    return s;
  }

  /** A free-form key: text, sometimes the empty key or one that looks like an index. */
  key(): string {
    const r = this.rnd();
    if (r < 0.05) return '';
    if (r < 0.15) return String(this.int(20));
    return this.chance(0.6) ? this.datum() : this.text();
  }

  /** Any JSON value, nested up to `depth` more levels. */
  value(depth: number): Node {
    const r = this.rnd();
    if (depth > 0 && r < 0.15) return arr(...this.many(() => this.value(depth - 1)));
    if (depth > 0 && r < 0.3) return this.map(depth - 1);
    if (r < 0.4) return { t: 'raw', text: this.pick(NUMBERS) };
    if (r < 0.45) return { t: 'raw', text: this.pick(['true', 'false', 'null']) };
    return str(this.text());
  }

  map(depth: number): Node {
    return obj(...this.many(() => [this.key(), this.value(depth)] as [string, Node]));
  }

  many<T>(make: () => T): T[] {
    const out: T[] = [];
    const n = this.int(5);
    for (let i = 0; i < n; i++) out.push(make());
    return out;
  }

  /** JSON whitespace, often none. */
  ws(): string {
    if (this.chance(0.6)) return '';
    let s = '';
    const n = 1 + this.int(3);
    for (let i = 0; i < n; i++) s += this.pick([' ', '\t', '\n', '\r']);
    return s;
  }

  /** A string literal, each character written in one of the ways JSON allows. */
  literal(v: string): string {
    const escapeAll = this.chance(0.05);
    let out = '"';
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      const pair =
        c >= 0xd800 && c <= 0xdbff && i + 1 < v.length && (v.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) {
        // Both halves raw or both escaped: a half alone cannot be sent as UTF-8.
        if (escapeAll || this.chance(0.3)) out += this.u(c) + this.u(v.charCodeAt(i + 1));
        else out += v.slice(i, i + 2);
        i++;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        out += this.u(c);
        continue;
      }
      const short: Record<number, string> = {
        34: '\\"',
        92: '\\\\',
        8: '\\b',
        12: '\\f',
        10: '\\n',
        13: '\\r',
        9: '\\t',
      };
      const must = c < 0x20 || c === 34 || c === 92;
      if (must || escapeAll || this.chance(0.1)) {
        if (short[c] !== undefined && this.chance(0.5)) out += short[c];
        else if (c === 47 && this.chance(0.5)) out += '\\/';
        else out += this.u(c);
      } else out += v[i];
    }
    return `${out}"`;
  }

  u(c: number): string {
    const hex = c.toString(16).padStart(4, '0');
    return `\\u${this.chance(0.5) ? hex : hex.toUpperCase()}`;
  }

  write(n: Node): string {
    const w = () => this.ws();
    switch (n.t) {
      case 'str':
        return this.literal(n.v);
      case 'raw':
        return n.text;
      case 'arr':
        return `[${w()}${n.items.map((x) => this.write(x)).join(`${w()},${w()}`)}${w()}]`;
      case 'obj':
        return `{${w()}${n.entries.map(([k, x]) => `${this.literal(k)}${w()}:${w()}${this.write(x)}`).join(`${w()},${w()}`)}${w()}}`;
    }
  }

  /** Tool-call arguments: a JSON text written the same awkward ways, or sometimes not JSON at all. */
  args(): Node {
    if (this.chance(0.1)) return str(`{"to": "${this.datum()}"`);
    return str(this.write(this.chance(0.7) ? this.map(2) : this.value(2)));
  }

  /** A body of `format`, with the shapes its rule reads and free-form values everywhere else. */
  body(format: BodyFormat): Node {
    const t = () => str(this.text());
    const extra = (): [string, Node] | null => (this.chance(0.3) ? [this.key(), this.value(2)] : null);
    const some = <T>(x: T): T | null => (this.chance(0.7) ? x : null);
    const shuffle = (entries: Array<[string, Node] | null>): Node => {
      for (let i = entries.length - 1; i > 0; i--) {
        const j = this.int(i + 1);
        [entries[i], entries[j]] = [entries[j] as [string, Node] | null, entries[i] as [string, Node] | null];
      }
      return obj(...entries);
    };
    switch (format) {
      case 'openai-chat':
      case 'openai-responses':
        return shuffle([
          ['model', str('gpt-x')],
          some(['seed', { t: 'raw', text: '12345678901234567890' }]),
          some(['user', t()]),
          some(['metadata', this.map(this.chance(0.3) ? 2 : 0)]),
          [
            format === 'openai-chat' ? 'messages' : 'input',
            arr(
              obj(['role', str('system')], ['content', t()]),
              obj(
                ['role', str('user')],
                [
                  'content',
                  arr(
                    obj(['type', str('text')], ['text', t()]),
                    obj(['type', str('image_url')], ['image_url', obj(['url', t()])]),
                  ),
                ],
                extra(),
              ),
              obj(
                ['role', str('assistant')],
                ['content', { t: 'raw', text: 'null' }],
                [
                  'tool_calls',
                  arr(
                    obj(
                      ['id', t()],
                      ['type', str('function')],
                      ['function', obj(['name', t()], ['arguments', this.args()])],
                    ),
                  ),
                ],
              ),
              obj(
                ['type', str('function_call')],
                ['call_id', t()],
                ['name', t()],
                ['arguments', this.args()],
              ),
              obj(['role', str('tool')], ['tool_call_id', t()], ['name', t()], ['content', t()]),
              obj(
                ['role', str('user')],
                ['content', arr(obj(['type', str('thinking')], ['thinking', t()], ['signature', t()]))],
              ),
            ),
          ],
          some([
            'response_format',
            obj(
              ['type', str('json_schema')],
              [
                'json_schema',
                obj(
                  ['name', t()],
                  [
                    'schema',
                    obj(['type', str('object')], ['properties', this.map(1)], ['default', this.value(2)]),
                  ],
                ),
              ],
            ),
          ]),
          some(['prompt', obj(['id', t()], ['variables', this.map(1)])]),
          extra(),
          extra(),
        ]);
      case 'embeddings':
        return shuffle([['model', str('e')], ['input', this.value(2)], some(['user', t()]), extra()]);
      case 'anthropic-messages':
        return shuffle([
          ['model', str('claude')],
          some(['metadata', this.map(this.chance(0.3) ? 2 : 0)]),
          some(['system', this.chance(0.5) ? t() : arr(obj(['type', str('text')], ['text', t()]))]),
          [
            'messages',
            arr(
              obj(['role', str('user')], ['content', t()]),
              obj(
                ['role', str('assistant')],
                [
                  'content',
                  arr(
                    obj(['type', str('thinking')], ['thinking', t()], ['signature', t()]),
                    obj(['type', str('tool_use')], ['id', t()], ['name', t()], ['input', this.map(2)]),
                    obj(
                      ['type', str('tool_result')],
                      ['tool_use_id', t()],
                      ['content', arr(obj(['type', str('text')], ['text', t()]))],
                    ),
                  ),
                ],
              ),
            ),
          ],
          extra(),
        ]);
      case 'gemini-generate':
        return shuffle([
          some(['labels', this.map(this.chance(0.3) ? 2 : 0)]),
          [
            'contents',
            arr(
              obj(
                ['role', str('user')],
                [
                  'parts',
                  arr(
                    obj(['text', t()]),
                    obj(['functionCall', obj(['name', t()], ['args', this.map(2)])]),
                    obj(['inlineData', obj(['mimeType', t()], ['data', t()])]),
                    obj(['text', t()], ['thoughtSignature', t()]),
                  ),
                ],
              ),
            ),
          ],
          some([
            'generationConfig',
            obj(['temperature', { t: 'raw', text: this.pick(NUMBERS) }], ['responseSchema', this.map(1)]),
          ]),
          extra(),
        ]);
      case 'cohere-chat':
        return shuffle([
          ['model', str('command')],
          ['messages', arr(obj(['role', str('user')], ['content', t()]))],
          some(['documents', arr(t(), obj(['id', t()], ['data', this.map(this.chance(0.3) ? 2 : 0)]))]),
          extra(),
        ]);
      default:
        // The formats of the network proxy's other operations are not fuzzed here (FORMATS).
        return shuffle([['model', str('m')], ['input', this.value(2)], extra()]);
    }
  }
}

const FORMATS: BodyFormat[] = [
  'openai-chat',
  'openai-responses',
  'embeddings',
  'anthropic-messages',
  'gemini-generate',
  'cohere-chat',
];
const MARKER = /PII\d+X/g;

/** Every string and key a parser reads from `v`, JSON texts inside strings read as well. */
function everyString(v: unknown, out: string[]): string[] {
  if (typeof v === 'string') {
    out.push(v);
    try {
      const inner = JSON.parse(v);
      if (inner && typeof inner === 'object') everyString(inner, out);
    } catch {
      // Not JSON text.
    }
  } else if (Array.isArray(v)) for (const x of v) everyString(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      everyString(x, out);
    }
  return out;
}

/**
 * Every key at any depth below the free-form maps whose keys are data (docs/netproxy.md), read from the
 * body as a provider parses it: independent of the walk, so a map the walk left out shows here.
 */
function dataMapKeys(format: BodyFormat, body: Record<string, unknown>): string[] {
  const keysBelow = (v: unknown, out: string[]): string[] => {
    if (Array.isArray(v)) for (const x of v) keysBelow(x, out);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        keysBelow(x, out);
      }
    return out;
  };
  if (format === 'gemini-generate') return keysBelow(body['labels'], []);
  if (format === 'cohere-chat') {
    const docs = Array.isArray(body['documents']) ? body['documents'] : [];
    return keysBelow(
      docs.map((d) => (d && typeof d === 'object' ? (d as Record<string, unknown>)['data'] : null)),
      [],
    );
  }
  return format === 'embeddings' ? [] : keysBelow(body['metadata'], []);
}

/** The string literals of valid JSON text, in order (keys included). */
function literals(text: string): string[] {
  return text.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
}

/** One body: written, parsed, walked, tokenized by marker, rewritten, and checked. */
function check(seed: number, w: Writer, format: BodyFormat): { fields: number; changed: number } {
  const node = w.body(format);
  const bom = w.chance(0.1) ? '\ufeff' : '';
  const written = `${bom}${w.ws()}${w.write(node)}${w.ws()}`;
  // As the proxy reads it: bytes, decoded as UTF-8 (a BOM dropped), then the strict parser.
  const source = jsonBodyText(Buffer.from(written, 'utf8'));
  const body = parseJsonText(source) as Record<string, unknown>;
  const { fields, rewrite } = requestFields(format, body);
  // The fake tokenizer: each datum becomes a token, sometimes one that needs escaping itself.
  const tokenized = new Set<string>();
  let changed = 0;
  let collision = false;
  for (const f of fields) {
    const ms = f.text.match(MARKER);
    if (!ms) continue;
    const next = f.text.replace(MARKER, (m) =>
      w.chance(0.1) ? `TKN"\\\u2028\ud800_${m.slice(3)}` : `TKN_${m.slice(3)}`,
    );
    try {
      f.set(next);
    } catch (err) {
      // Only two keys that become one may refuse: never the case here, tokens being unique per datum.
      collision = true;
      assert.ok(
        err instanceof AppError && /would be one key/.test(err.message),
        `seed ${seed}: ${String(err)}`,
      );
      break;
    }
    for (const m of ms) tokenized.add(m);
    changed++;
  }
  assert.equal(collision, false, `seed ${seed}: a key collided`);
  const out = rewrite(source);
  const at = `seed ${seed}, ${format}: ${source.slice(0, 300)}`;
  // What the provider parses is what the walk set, keys renamed included.
  assert.deepStrictEqual(JSON.parse(out), body, at);
  // No tokenized datum left, raw or escaped, anywhere a parser reads (JSON texts inside strings too).
  const read = everyString(JSON.parse(out), []).join('\u0001');
  for (const m of tokenized) {
    assert.ok(!out.includes(m), `${at}: ${m} raw in the text`);
    assert.ok(!read.includes(m), `${at}: ${m} escaped in the text`);
  }
  // Every other byte as sent: outside string literals the texts are equal, and a literal that reads the
  // same is written the same.
  const bare = (s: string) => s.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  assert.equal(bare(out), bare(source), at);
  const before = literals(source);
  const after = literals(out);
  assert.equal(after.length, before.length, at);
  before.forEach((b, i) => {
    const a = after[i] as string;
    if (JSON.parse(a) === JSON.parse(b)) assert.equal(a, b, `${at}: literal ${i} re-encoded`);
  });
  // Whatever the walk did: no datum left in a key of a data map, at any depth.
  for (const k of dataMapKeys(format, JSON.parse(out))) assert.doesNotMatch(k, /PII\d+X/, `${at}: key ${k}`);
  if (changed === 0) assert.equal(out, source, at);
  return { fields: fields.length, changed };
}

describe('body rewrite, differential (seeded)', () => {
  it('what a parser reads from the rewritten text is what the walk set, for bodies written every valid way', () => {
    let cases = 0;
    let changedFields = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const w = new Writer(generator(seed));
      for (let i = 0; i < 60; i++) {
        const r = check(seed, w, FORMATS[i % FORMATS.length] as BodyFormat);
        changedFields += r.changed;
        cases++;
      }
    }
    assert.equal(cases, 2_400);
    // The fuzz reaches what it is for: many changed fields, keys among them.
    assert.ok(changedFields > 10_000, `only ${changedFields} changed fields`);
  });

  it('a key repeated once decoded ("a" and "\\u0061", in any escape) is refused before the walk', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const w = new Writer(generator(seed));
      const key = w.text() || 'k';
      const inner = w.write(w.map(1));
      const text = `{${w.literal(key)}:1,"x":${inner},${w.ws()}${w.literal(key)}${w.ws()}:${w.ws()}"${w.datum()}"}`;
      assert.throws(
        () => parseJsonText(text),
        (err: unknown) => err instanceof AppError && /repeats the key/.test(err.message),
        text,
      );
    }
  });
});
