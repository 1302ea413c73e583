import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTokenMap } from '../../src/engines/dlp/token-map.js';
import {
  chance,
  fuzzCases,
  fuzzSeed,
  genText,
  int,
  partialToken,
  pick,
  rngOf,
  splitDeltas,
  splitReads,
  vaultOf,
} from '../../test/support/stream-fuzz.js';
import { SseRehydrator } from '../src/shared/sse-rehydrate.js';

// What a chat page does with the rehydrated stream: each field (ChatGPT path, Anthropic content block,
// OpenAI choice) grows by the text of its deltas. Checked after every event the page gets: no field ever
// shows a token or a part of one, and each ends as the original answer.

const map = createTokenMap([
  { token: 'TKN_NAME_0a1b2c3g', type: 'NAME', value: 'Anna Schmidt' },
  { token: 'TKN_IBAN_9f8e7d6h', type: 'IBAN', value: 'DE89 3704 0044 0532 0130 00' },
  { token: 'TKN_EMAIL_0123456g', type: 'EMAIL', value: 'anna@example.com' },
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a page shows of `out`: each field's text and the pieces it grew by. With `strict`, no field may ever
 * show "TKN_" (the answers of these tests restore every token they hold).
 */
function render(
  out: string,
  strict: boolean,
): { fields: Map<string, string>; pieces: Map<string, string[]> } {
  const fields = new Map<string, string>();
  const pieces = new Map<string, string[]>();
  let sticky: { p: unknown; o: unknown } = { p: undefined, o: 'append' };
  const add = (key: string, text: string) => {
    const now = (fields.get(key) ?? '') + text;
    fields.set(key, now);
    pieces.set(key, [...(pieces.get(key) ?? []), text]);
    if (strict) assert.ok(!/TKN_/.test(now), `field ${key} shows ${JSON.stringify(now)}`);
  };
  const chatgptOp = (p: unknown, o: unknown, v: unknown) => {
    if (o === 'append' && typeof v === 'string' && (p === undefined || /\/parts\/\d+$/.test(String(p))))
      add(`chatgpt:${String(p ?? '')}`, v);
    if (o === 'patch' && Array.isArray(v)) for (const op of v as Obj[]) chatgptOp(op['p'], op['o'], op['v']);
  };
  for (const ev of out.split(/\r?\n\r?\n/)) {
    const m = /^data: (.*)$/m.exec(ev);
    if (!m || m[1] === '[DONE]') continue;
    let d: unknown;
    try {
      d = JSON.parse(m[1]!);
    } catch {
      continue;
    }
    if (!isObj(d)) continue;
    if (d['type'] === 'content_block_delta' && isObj(d['delta']) && d['delta']['type'] === 'text_delta') {
      add(`block:${String(d['index'])}`, String(d['delta']['text']));
    } else if (Array.isArray(d['choices'])) {
      for (const c of d['choices'] as Obj[])
        if (isObj(c['delta']) && typeof c['delta']['content'] === 'string')
          add(`choice:${String(c['index'])}`, c['delta']['content']);
    } else if ('v' in d && d['type'] === undefined) {
      if ('p' in d) sticky = { p: d['p'], o: d['o'] };
      chatgptOp(sticky.p, sticky.o, d['v']);
    }
  }
  return { fields, pieces };
}

const pageView = (out: string) => render(out, true).fields;

const sse = (d: unknown, name?: string, eol = '\n') =>
  `${name ? `event: ${name}${eol}` : ''}data: ${typeof d === 'string' ? d : JSON.stringify(d)}${eol}${eol}`;

const run = (raw: string, cuts: number[] = []): string => {
  const r = new SseRehydrator(map);
  let out = '';
  let at = 0;
  for (const c of [...cuts, raw.length]) {
    out += r.push(raw.slice(at, c));
    at = c;
  }
  return out + r.flush();
};

describe('SSE rehydration: events that end nothing release nothing', () => {
  const anthropic = (text: string, index = 0) =>
    sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta');

  it('Anthropic: a ping between the two halves of a token', () => {
    const raw =
      anthropic('Mail TKN_EMAIL_01') +
      sse({ type: 'ping' }, 'ping') +
      anthropic('23456g now') +
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
      sse({ type: 'message_stop' }, 'message_stop');
    assert.deepEqual([...pageView(run(raw))], [['block:0', 'Mail anna@example.com now']]);
  });

  it('Anthropic: a citation delta and an unknown metadata event between the halves', () => {
    const raw =
      anthropic('Hi TKN_NAME_0a') +
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { n: 1 } } },
        'content_block_delta',
      ) +
      sse({ type: 'message_limit', message_limit: { type: 'within_limit' } }, 'message_limit') +
      anthropic('1b2c3g.') +
      sse({ type: 'message_stop' }, 'message_stop');
    assert.deepEqual([...pageView(run(raw))], [['block:0', 'Hi Anna Schmidt.']]);
  });

  it('ChatGPT: a metadata patch and a heartbeat between the halves keep the text on its own path', () => {
    const raw =
      sse('"v1"') +
      sse({ p: '/message/content/parts/0', o: 'append', v: 'Mail TKN_EMA' }) +
      sse({ type: 'server_ste_metadata', metadata: {} }) +
      sse({ p: '/message/metadata/content_references', o: 'append', v: [{ n: 1 }] }) +
      sse({ p: '/message/content/parts/0', o: 'append', v: 'IL_0123456g' }) +
      sse({ v: ' ok' }) +
      sse({ type: 'message_stream_complete' }) +
      sse('[DONE]');
    assert.deepEqual(
      [...pageView(run(raw))],
      [['chatgpt:/message/content/parts/0', 'Mail anna@example.com ok']],
    );
  });

  it('an event whose name or nested type merely reads like an end (append, sender, pending) ends nothing', () => {
    const raw =
      sse({ p: '/message/content/parts/0', o: 'append', v: 'Hi TKN_NAME_0a1' }) +
      sse({ type: 'message_marker', author: { type: 'sender' } }) +
      sse({ status: 'x' }, 'append_status') +
      sse({ type: 'pending_citations' }) +
      sse({ v: 'b2c3g!' }) +
      sse('[DONE]');
    assert.deepEqual([...pageView(run(raw))], [['chatgpt:/message/content/parts/0', 'Hi Anna Schmidt!']]);
  });

  it('OpenAI chunks: a chunk without content (role, tool or usage-less heartbeat) between the halves', () => {
    const chunk = (delta: Obj, extra: Obj = {}) => sse({ choices: [{ index: 0, delta, ...extra }] });
    const raw =
      chunk({ content: 'IBAN TKN_IBAN_9f' }) +
      chunk({}) +
      sse({ type: 'heartbeat' }) +
      chunk({ content: '8e7d6h' }) +
      chunk({}, { finish_reason: 'stop' }) +
      sse('[DONE]');
    assert.deepEqual([...pageView(run(raw))], [['choice:0', 'IBAN DE89 3704 0044 0532 0130 00']]);
  });
});

describe('SSE rehydration: one rehydrator per field', () => {
  it('OpenAI chunks with two choices interleaved, each choice split inside a token', () => {
    const c = (index: number, content: string) => sse({ choices: [{ index, delta: { content } }] });
    const raw =
      c(0, 'A: TKN_NA') +
      c(1, 'B: TKN_IB') +
      c(0, 'ME_0a1b2c3g') +
      c(1, 'AN_9f8e7d6h') +
      sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
      sse({ choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] }) +
      sse('[DONE]');
    const view = pageView(run(raw));
    assert.equal(view.get('choice:0'), 'A: Anna Schmidt');
    assert.equal(view.get('choice:1'), 'B: DE89 3704 0044 0532 0130 00');
  });

  it('Anthropic blocks interleaved (two indexes open at once)', () => {
    const d = (index: number, text: string) =>
      sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta');
    const raw =
      d(0, 'x TKN_NAME_0') +
      d(1, 'y TKN_EMAIL_') +
      d(0, 'a1b2c3g') +
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
      d(1, '0123456g') +
      sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop') +
      sse({ type: 'message_stop' }, 'message_stop');
    const view = pageView(run(raw));
    assert.equal(view.get('block:0'), 'x Anna Schmidt');
    assert.equal(view.get('block:1'), 'y anna@example.com');
  });

  it("ChatGPT: held text released with its own path; the site's next bare event keeps the site's path", () => {
    const p = (n: number, v: string) => sse({ p: `/message/content/parts/${n}`, o: 'append', v });
    const raw = p(0, 'a T') + p(1, 'b') + sse({ type: 'message_stream_complete' }) + sse({ v: 'c' });
    const view = pageView(run(raw));
    assert.equal(view.get('chatgpt:/message/content/parts/0'), 'a T');
    assert.equal(view.get('chatgpt:/message/content/parts/1'), 'bc');
  });

  it('ChatGPT: two parts interleaved by explicit paths', () => {
    const p = (n: number, v: string) => sse({ p: `/message/content/parts/${n}`, o: 'append', v });
    const raw =
      p(0, 'a TKN_NAM') + p(1, 'b TKN_IBAN') + p(0, 'E_0a1b2c3g') + p(1, '_9f8e7d6h') + sse('[DONE]');
    const view = pageView(run(raw));
    assert.equal(view.get('chatgpt:/message/content/parts/0'), 'a Anna Schmidt');
    assert.equal(view.get('chatgpt:/message/content/parts/1'), 'b DE89 3704 0044 0532 0130 00');
  });
});

// The Anthropic rule is the engine's, shared with the network proxy, which also restores a tool's input
// (input_json_delta, JSON text). The page does not: the input passes as the site sent it (see anthropic in
// sse-rehydrate.ts), while the text blocks around it are restored.
describe('SSE rehydration: Anthropic tool input', () => {
  it('an input_json_delta passes as the site sent it, token and all; the text block is restored', () => {
    const json = (partial_json: string) =>
      sse(
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } },
        'content_block_delta',
      );
    const raw =
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'To TKN_EMAIL_01' } }) +
      json('{"to":"TKN_EMAIL_01') +
      json('23456g"}') +
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '23456g.' } }) +
      sse({ type: 'message_stop' }, 'message_stop');
    const out = run(raw);
    assert.ok(out.includes(json('{"to":"TKN_EMAIL_01')) && out.includes(json('23456g"}')), out);
    assert.deepEqual([...pageView(out)], [['block:0', 'To anna@example.com.']]);
  });
});

describe('SSE rehydration reads each character a bounded number of times', () => {
  it('an event arriving in many small reads is searched for its end once, not again at every read', () => {
    // Counted, not timed: the length of every string the event-end search is given (a few times the body's
    // length when only new text is searched). Searching the whole buffer again at each read made this
    // quadratic (200 KB in 8-character reads took seconds).
    const exec = RegExp.prototype.exec;
    let searched = 0;
    RegExp.prototype.exec = function (this: RegExp, s: string) {
      if (this.source === '\\r?\\n\\r?\\n') searched += s.length;
      return exec.call(this, s);
    };
    const text = 'x'.repeat(20_000);
    const raw =
      sse({ choices: [{ index: 0, delta: { role: 'assistant' } }] }) +
      sse({ choices: [{ index: 0, delta: { content: text } }] }) +
      sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
      sse('[DONE]');
    const cuts: number[] = [];
    for (let i = 8; i < raw.length; i += 8) cuts.push(i);
    let out: string;
    try {
      out = run(raw, cuts);
    } finally {
      RegExp.prototype.exec = exec;
    }
    assert.equal(pageView(out).get('choice:0'), text);
    assert.ok(searched <= 5 * raw.length, `searched ${searched} characters for a body of ${raw.length}`);
  });
});

// A seeded fuzz like the network proxy's (src/modules/netproxy/streams.test.ts): random answers with
// tokens in every form models give them, cut into deltas anywhere, one or two fields side by side, events
// that end nothing (pings, citations, metadata patches, heartbeats, comments) between any two deltas, and
// the body cut into reads anywhere (inside UTF-8 sequences and CRLFs too), decoded as the page hook does.
describe('SSE rehydration fuzz', () => {
  type Kind = 'anthropic' | 'chatgpt' | 'openai';
  const KINDS: Kind[] = ['anthropic', 'chatgpt', 'openai'];
  const CASES = fuzzCases(300);
  const SEED = fuzzSeed(1);

  function genCase(seed: number) {
    const rng = rngOf(seed);
    const vault = vaultOf(Math.floor(seed / 50));
    const kind = pick(rng, KINDS);
    const eol = chance(rng, 0.3) ? '\r\n' : '\n';
    const ev = (d: unknown, name?: string) =>
      `${name && kind === 'anthropic' ? `event: ${name}${eol}` : ''}data: ${typeof d === 'string' ? d : JSON.stringify(d)}${eol}${eol}`;
    const n = kind === 'anthropic' ? 1 + (chance(rng, 0.2) ? 1 : 0) : int(rng, 1, 2);
    const texts = Array.from({ length: n }, () => genText(rng, vault, int(rng, 1, 200)));
    const queues = texts.map((t) => splitDeltas(rng, t.model, t.cuts));
    const fieldKey = (i: number) =>
      kind === 'anthropic'
        ? `block:${i}`
        : kind === 'openai'
          ? `choice:${i}`
          : `chatgpt:/message/content/parts/${i}`;
    let sticky = '';
    const delta = (i: number, text: string): string => {
      if (kind === 'anthropic')
        return ev(
          { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text } },
          'content_block_delta',
        );
      if (kind === 'openai') return ev({ choices: [{ index: i, delta: { content: text } }] });
      const p = `/message/content/parts/${i}`;
      if (sticky === p && chance(rng, 0.8)) return ev({ v: text });
      sticky = p;
      return ev({ p, o: 'append', v: text });
    };
    const noise = (): string => {
      const r = rng();
      if (r < 0.2) return `: keep-alive${eol}${eol}`;
      if (kind === 'anthropic') {
        if (r < 0.6) return ev({ type: 'ping' }, 'ping');
        if (r < 0.8)
          return ev(
            { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { n: 1 } } },
            'content_block_delta',
          );
        return ev({ type: 'message_limit', message_limit: { type: 'within_limit' } }, 'message_limit');
      }
      if (kind === 'openai') {
        if (r < 0.6) return ev({ choices: [{ index: int(rng, 0, n - 1), delta: {} }] });
        return ev({ type: 'heartbeat' });
      }
      if (r < 0.6) {
        sticky = '/message/metadata/content_references';
        return ev({ p: sticky, o: 'append', v: [{ n: 1 }] });
      }
      return ev({ type: 'server_ste_metadata', metadata: { type: 'sender' } });
    };
    let raw = kind === 'chatgpt' ? ev('"v1"') : '';
    if (kind === 'anthropic') raw += ev({ type: 'message_start', message: { id: 'm' } }, 'message_start');
    for (;;) {
      const open = queues.map((q, i) => (q.length > 0 ? i : -1)).filter((i) => i >= 0);
      if (open.length === 0) break;
      const i = pick(rng, open);
      raw += delta(i, queues[i]!.shift()!);
      while (chance(rng, 0.25)) raw += noise();
    }
    if (kind === 'anthropic') {
      for (let i = 0; i < n; i++) raw += ev({ type: 'content_block_stop', index: i }, 'content_block_stop');
      raw += ev({ type: 'message_stop' }, 'message_stop');
    } else if (kind === 'openai') {
      for (let i = 0; i < n; i++) raw += ev({ choices: [{ index: i, delta: {}, finish_reason: 'stop' }] });
      raw += ev('[DONE]');
    } else raw += ev({ type: 'message_stream_complete' }) + ev('[DONE]');
    const expected = new Map(texts.map((t, i) => [fieldKey(i), t.expected] as [string, string]));
    return { rng, raw, expected, tokens: vault.tokens, map: vault.map };
  }

  it(`${CASES} seeded cases from seed ${SEED}: each field whole, restored, never a part of a token`, () => {
    for (let seed = SEED; seed < SEED + CASES; seed++) {
      const c = genCase(seed);
      const r = new SseRehydrator(c.map);
      const decoder = new TextDecoder();
      let out = '';
      for (const read of splitReads(c.rng, new TextEncoder().encode(c.raw)))
        out += r.push(decoder.decode(read, { stream: true }));
      out += r.push(decoder.decode()) + r.flush();
      const { fields, pieces } = render(out, false);
      const label = `seed ${seed} (STREAM_FUZZ_SEED=${seed} to replay)`;
      for (const [key, text] of c.expected) {
        if (text === '') continue;
        assert.equal(fields.get(key), text, `${label}: ${key}`);
        assert.equal(partialToken(pieces.get(key) ?? [], c.tokens), null, `${label}: ${key} split a token`);
      }
    }
  });
});
