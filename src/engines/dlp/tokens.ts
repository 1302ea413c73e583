import { detectEntities } from './detect.js';
import { ENTITY_TYPES } from './entity-types.js';
import { hmacSha256OfText } from './sha256.js';
import { type TokenMap, valueKey } from './token-map.js';
import type { DetectOptions, Entity } from './types.js';

// Suffix alphabet: every character but the last comes from BODY, the last from END. The two sets are
// disjoint, case-insensitively too, so no suffix is a prefix of another (a prefix-free code): "…_1" can
// never sit inside "…_10", and a lengthened suffix after a collision cannot contain the shorter one.
// Letters that models confuse or that markdown treats specially (i, l, o, u) are left out.
const BODY = '0123456789abcdef';
const END = 'ghjkmnpqrstvwxyz';
export const DEFAULT_SUFFIX_LENGTH = 8;
const MAX_SUFFIX_LENGTH = 64;

export function tokenTypeName(type: string): string {
  return type.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

function suffixFrom(mac: Uint8Array, length: number): string {
  let s = '';
  for (let i = 0; i < length - 1; i++) {
    const byte = mac[i >> 1]!;
    s += BODY[i % 2 === 0 ? byte >> 4 : byte & 15];
  }
  return s + END[mac[31]! & 15];
}

export function tokenFor(
  map: TokenMap,
  sessionKey: Uint8Array,
  type: string,
  value: string,
): { token: string; isNew: boolean } {
  const key = valueKey(type, value);
  const existing = map.byValue.get(key);
  if (existing !== undefined) return { token: existing, isNew: false };
  const typeName = tokenTypeName(type);
  // Derived from a keyed hash, not a counter, so concurrent requests of one session need no shared state.
  const mac = hmacSha256OfText(sessionKey, key);
  for (let length = DEFAULT_SUFFIX_LENGTH; length <= MAX_SUFFIX_LENGTH; length++) {
    const token = `TKN_${typeName}_${suffixFrom(mac, length)}`;
    const taken = map.byToken.get(token);
    if (taken === undefined) {
      map.byToken.set(token, { type, value });
      map.byValue.set(key, token);
      return { token, isNew: true };
    }
    if (valueKey(taken.type, taken.value) === key) return { token, isNew: false };
  }
  throw new Error('token space exhausted');
}

export interface TokenizeResult {
  tokenized: string;
  tokens: Array<{ token: string; type: string; domain: string; start: number; end: number; isNew: boolean }>;
  entities: Entity[];
}

export function tokenize(
  text: string,
  map: TokenMap,
  sessionKey: Uint8Array,
  options?: DetectOptions,
): TokenizeResult {
  return tokenizeEntities(text, detectEntities(text, options), map, sessionKey);
}

/** Replaces entities already found in `text` (sorted, not overlapping, as detectEntities returns them). */
export function tokenizeEntities(
  text: string,
  entities: Entity[],
  map: TokenMap,
  sessionKey: Uint8Array,
): TokenizeResult {
  const tokens: TokenizeResult['tokens'] = [];
  let out = '';
  let cursor = 0;
  for (const e of entities) {
    const { token, isNew } = tokenFor(map, sessionKey, e.type, e.value);
    out += text.slice(cursor, e.start);
    // Offsets of the token in the tokenized text, so callers can highlight it.
    tokens.push({
      token,
      type: e.type,
      domain: e.domain,
      start: out.length,
      end: out.length + token.length,
      isNew,
    });
    out += token;
    cursor = e.end;
  }
  out += text.slice(cursor);
  return { tokenized: out, tokens, entities };
}

export function listEntityTypes(): Array<{ type: string; domain: string; description: string }> {
  return ENTITY_TYPES.map((t) => ({ ...t }));
}
