// Seeded generators for the streamed-rehydration fuzz (src/modules/netproxy/streams.test.ts and
// src/modules/protection/rehydrate.fuzz.test.ts): a vault filled by the real tokenization, a model's answer
// (text and tool-call arguments) holding its tokens in every form models give them, and the answer cut
// into deltas anywhere. Every generated piece carries what the client must see once tokens are restored,
// so the expected answer is built independently of the rehydrator under test.
import {
  createTokenMap,
  type Entity,
  type TokenMap,
  tokenize,
  tokenizeEntities,
} from '../../src/engines/dlp/index.js';
import { mulberry32 } from '../../eval/dlp/corpus/random.js';

export type Rng = () => number;

/** mulberry32 (the DLP corpus generator's): small, fast and the same on every machine. */
export const rngOf = (seed: number): Rng => mulberry32(seed);

export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
export const chance = (rng: Rng, p: number) => rng() < p;

/** How many cases each format runs: STREAM_FUZZ_CASES overrides (npm run fuzz:streams runs more). */
export function fuzzCases(fallback: number): number {
  const n = Number(process.env['STREAM_FUZZ_CASES']);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The first seed: STREAM_FUZZ_SEED overrides, to replay a reported failure. */
export function fuzzSeed(fallback: number): number {
  const n = Number(process.env['STREAM_FUZZ_SEED']);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

// ---------------------------------------------------------------------------------------------------------
// Vault

const FIRST = ['Anna', 'José', 'Zoë', 'Marie-Claire', 'Jürgen', 'Luca', 'Ingrid', 'Thomas'];
const LAST = ['Müller', 'García', 'Dubois', 'Rossi', 'Schneider', 'Okafor', 'Bernasconi', 'Keller'];
const IBANS = ['CH93 0076 2011 6238 5295 7', 'DE89 3704 0044 0532 0130 00', 'GB29 NWBK 6016 1331 9268 19'];
const CARDS = ['4111 1111 1111 1111', '5500 0000 0000 0004'];
// Values no detector finds, issued through the same tokenization: quotes, backslashes, line breaks and
// characters outside the BMP must come back escaped in JSON text and whole in plain text.
const ODD_VALUES = [
  'Zoë "Z" O\'Brien',
  'C:\\Users\\anna',
  'line one\nline two',
  '李小龙 😀',
  'Ünïcødé\ttab',
  '\\u00e9 literal',
];

export interface Vault {
  map: TokenMap;
  /** Issued tokens, as issued (upper case). */
  tokens: string[];
  values: Map<string, string>;
}

const SESSION_KEY = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 255);

const vaults = new Map<number, Vault>();

/**
 * The vault of a case: detection is most of what a case costs, so consecutive seeds share one (a vault is
 * only read by rehydration); `group` names it, so a replayed seed gets the same one.
 */
export function vaultOf(group: number): Vault {
  let v = vaults.get(group);
  if (!v) {
    v = makeVault(rngOf(0x5eed + group));
    if (vaults.size > 64) vaults.clear();
    vaults.set(group, v);
  }
  return v;
}

export function makeVault(rng: Rng): Vault {
  const map = createTokenMap();
  const parts: string[] = [];
  const n = int(rng, 2, 5);
  for (let i = 0; i < n; i++) {
    const first = pick(rng, FIRST);
    const last = pick(rng, LAST);
    switch (int(rng, 0, 4)) {
      case 0:
        parts.push(`Contact ${first} ${last} today.`);
        break;
      case 1:
        parts.push(
          `Write to ${first.toLowerCase().replace(/[^a-z]/g, '')}.${int(rng, 1, 9999)}@example.ch please.`,
        );
        break;
      case 2:
        parts.push(`Call +41 79 ${int(rng, 100, 999)} ${int(rng, 10, 99)} ${int(rng, 10, 99)} now.`);
        break;
      case 3:
        parts.push(`IBAN ${pick(rng, IBANS)} is hers.`);
        break;
      default:
        parts.push(`Card ${pick(rng, CARDS)} expired.`);
    }
  }
  tokenize(parts.join(' '), map, SESSION_KEY);
  const odd = int(rng, 0, 2);
  for (let i = 0; i < odd; i++) {
    const value = pick(rng, ODD_VALUES);
    const entity: Entity = {
      type: 'NAME',
      domain: 'PERSONAL',
      start: 0,
      end: value.length,
      value,
      confidence: 1,
      detector: 'fuzz',
    };
    tokenizeEntities(value, [entity], map, SESSION_KEY);
  }
  const values = new Map<string, string>();
  for (const [token, entry] of map.byToken) values.set(token, entry.value);
  return { map, tokens: [...values.keys()], values };
}

// ---------------------------------------------------------------------------------------------------------
// Answer text

const FILLERS = [
  'the ',
  'result',
  ' is ',
  'Grüße',
  ' — ',
  'ça coûte 5 €',
  '日本語',
  'の',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '\n',
  '\r\n',
  '\t',
  '"',
  '\\',
  "'",
  ' ',
  'T',
  't',
  'tkn',
  'TKN_',
  'TKN',
  'Tkn_x',
  '_',
  '*',
  '**',
  '(',
  ')',
  ', ',
  '.',
  '42',
  'é',
  'ß',
  '\u00a0',
  'Ω',
  '→',
];
const SEPARATORS = [' ', '.', ',', '!', '\n', ')', '"', 'é', '日', '😀', '—', ':'];
const BODY = '0123456789abcdef';
const END = 'ghjkmnpqrstvwxyz';

export interface GenText {
  /** What the model writes (tokens in it). */
  model: string;
  /** What the client must get. */
  expected: string;
  /** Offsets in `model` inside issued tokens: cutting the deltas there splits a token. */
  cuts: number[];
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9]/.test(ch);

/**
 * A random answer. Tokens stand where no letter or digit precedes them (the rehydrator's boundary rule) and
 * nothing that would lengthen them follows, except the endings models glue on, which are part of the case.
 */
export function genText(rng: Rng, vault: Vault, length: number): GenText {
  let model = '';
  let expected = '';
  const cuts: number[] = [];
  // After a token (or token look-alike) the next character must not extend it.
  let sealed = false;
  const add = (m: string, e: string = m) => {
    if (sealed && /^[A-Za-z0-9_\\]/.test(m)) {
      const sep = pick(rng, SEPARATORS);
      model += sep;
      expected += sep;
    }
    sealed = false;
    model += m;
    expected += e;
  };
  const boundary = () => {
    if (isWordChar(model[model.length - 1]) || sealed) {
      const sep = pick(rng, SEPARATORS);
      model += sep;
      expected += sep;
      sealed = false;
    }
  };
  while (model.length < length) {
    const r = rng();
    if (r < 0.5 || vault.tokens.length === 0) {
      add(pick(rng, FILLERS));
      continue;
    }
    const token = pick(rng, vault.tokens);
    const value = vault.values.get(token)!;
    boundary();
    const start = model.length;
    if (r < 0.78) {
      // An issued token, in one of the forms models give it.
      const form = rng();
      let text = token;
      let after = '';
      if (form < 0.12) text = token.toLowerCase();
      else if (form < 0.22) text = token.replace(/_/g, '\\_');
      else if (form < 0.32) after = pick(rng, ['s', 'en', 'es', 'n']);
      else if (form < 0.4) after = pick(rng, ['_and', '_2']);
      add(text + after, value + after);
      sealed = true;
      for (let i = start + 1; i < start + text.length; i++) cuts.push(i);
    } else if (r < 0.86) {
      // The start of an issued token, then something else: never restored, never held forever.
      const prefix = token.slice(0, int(rng, 1, token.length - 1));
      add(prefix);
      const sep = pick(rng, SEPARATORS);
      model += sep;
      expected += sep;
      for (let i = start + 1; i <= start + prefix.length; i++) cuts.push(i);
    } else if (r < 0.93) {
      // A token-looking string that was never issued.
      let fake: string;
      do {
        const type = pick(rng, ['EMAIL', 'NAME', 'PHONE', 'IBAN', 'FOO', 'X1']);
        let suffix = '';
        for (let i = 0; i < 7; i++) suffix += pick(rng, [...BODY]);
        fake = `TKN_${type}_${suffix}${pick(rng, [...END])}`;
      } while (vault.tokens.some((t) => fake.toUpperCase().startsWith(t)));
      add(fake);
      sealed = true;
      for (let i = start + 1; i < start + fake.length; i++) cuts.push(i);
    } else {
      // An issued token with a digit glued on: a different token, left as it is.
      const text = `${token}${int(rng, 0, 9)}`;
      add(text);
      sealed = true;
      for (let i = start + 1; i < start + text.length; i++) cuts.push(i);
    }
  }
  if (sealed) {
    const sep = pick(rng, SEPARATORS);
    model += sep;
    expected += sep;
  }
  return { model, expected, cuts };
}

// ---------------------------------------------------------------------------------------------------------
// Tool-call arguments

export interface GenArgs {
  /** The arguments as the model streams them (JSON text, tokens inside its strings). */
  model: string;
  /** What the client must be able to parse from the restored arguments. */
  expected: unknown;
  cuts: number[];
}

/** JSON text as Python's json.dumps writes it by default: everything outside ASCII as \uXXXX escapes. */
function asciiJson(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function genArgs(rng: Rng, vault: Vault): GenArgs {
  const model: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  const keys = int(rng, 1, 4);
  for (let k = 0; k < keys; k++) {
    const key = pick(rng, ['query', 'to', 'note', 'path', 'items', 'count', 'flag', 'nested']);
    const kind = int(rng, 0, 4);
    if (kind <= 1) {
      const t = genText(rng, vault, int(rng, 1, 60));
      model[key] = t.model;
      expected[key] = t.expected;
    } else if (kind === 2) {
      const ts = Array.from({ length: int(rng, 1, 3) }, () => genText(rng, vault, int(rng, 1, 30)));
      model[key] = ts.map((t) => t.model);
      expected[key] = ts.map((t) => t.expected);
    } else if (kind === 3) {
      const t = genText(rng, vault, int(rng, 1, 30));
      const n = int(rng, 0, 100);
      const ok = chance(rng, 0.5);
      model[key] = { note: t.model, n, ok };
      expected[key] = { note: t.expected, n, ok };
    } else {
      model[key] = int(rng, -5, 5000);
      expected[key] = model[key];
    }
  }
  let text = JSON.stringify(model, null, chance(rng, 0.25) ? 2 : undefined);
  if (chance(rng, 0.4)) text = asciiJson(text);
  // Cut anywhere inside escapes (\", \\, \n, \u00e9, \ud83d\ude00) and tokens: every offset is a candidate.
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) if (text[i - 1] === '\\' || /[_\\]/.test(text[i]!)) cuts.push(i);
  return { model: text, expected, cuts };
}

// ---------------------------------------------------------------------------------------------------------
// Deltas and reads

/** Cuts `text` into deltas: one character each, short, long or whole, plus cuts inside tokens. */
export function splitDeltas(rng: Rng, text: string, cuts: number[]): string[] {
  if (text === '') return [''];
  const at = new Set<number>();
  const mode = rng();
  if (mode < 0.1) for (let i = 1; i < text.length; i++) at.add(i);
  else if (mode < 0.9) {
    const max = mode < 0.5 ? 8 : 40;
    for (let i = int(rng, 1, max); i < text.length; i += int(rng, 1, max)) at.add(i);
  }
  for (const c of cuts) if (chance(rng, 0.3)) at.add(c);
  const sorted = [...at].filter((i) => i > 0 && i < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const i of sorted) {
    out.push(text.slice(prev, i));
    prev = i;
  }
  out.push(text.slice(prev));
  return out;
}

/** Cuts bytes into reads: byte by byte, small, large or whole (inside UTF-8 sequences and CRLFs too). */
export function splitReads(rng: Rng, bytes: Uint8Array): Uint8Array[] {
  const mode = rng();
  // Byte by byte is the slowest to run (the SSE parser rescans its buffer per read): a few cases suffice.
  const max = mode < 0.02 ? 1 : mode < 0.15 ? 9 : mode < 0.95 ? 400 : bytes.length;
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = Math.max(1, int(rng, 1, max));
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/**
 * The pieces of one field as the client got them: no piece may end with the start of an issued token whose
 * rest opens the next piece (the client would have seen part of a token). Returns the offending pair.
 */
export function partialToken(pieces: string[], tokens: string[]): string | null {
  const seen = pieces.filter((p) => p !== '');
  for (let i = 0; i + 1 < seen.length; i++) {
    const a = seen[i]!.toUpperCase();
    const b = seen[i + 1]!.toUpperCase();
    for (const t of tokens) {
      for (let k = 1; k < t.length; k++) {
        if (a.endsWith(t.slice(0, k)) && b.startsWith(t.slice(k))) return `${seen[i]} | ${seen[i + 1]}`;
      }
    }
  }
  return null;
}
