import {
  BOUNDARY_CONTEXT,
  boundaryBefore,
  buildIndex,
  contextBefore,
  canonicalToken,
  MAX_GLUED_LETTERS,
  rehydrateSegment,
  type TokenIndex,
} from './rehydrate.js';
import type { TokenMap } from './token-map.js';
import { trimEndWhere } from '../text.js';

/**
 * Restores tokens in text that arrives in chunks (SSE deltas, tool-call argument fragments). Everything
 * that cannot be the beginning of a known token is emitted at once; at most one token's length (plus
 * escapes and a glued ending) is held back, so a token split across any chunk boundary is still restored.
 */
export class StreamingRehydrator {
  private readonly map: TokenMap;
  private readonly json: boolean;
  private index: TokenIndex;
  private pending = '';
  /** last characters already emitted (BOUNDARY_CONTEXT of them), for the token-boundary test */
  private lastEmitted = '';
  private restoredCount = 0;
  private readonly unknownTokens: string[] = [];

  constructor(map: TokenMap, options: { json?: boolean } = {}) {
    this.map = map;
    this.json = options.json ?? false;
    this.index = buildIndex(map);
  }

  get restored(): number {
    return this.restoredCount;
  }

  get unknown(): readonly string[] {
    return this.unknownTokens;
  }

  push(chunk: string): string {
    // The vault may grow during a conversation turn; rebuild the index only when it did.
    if (this.map.byToken.size !== this.index.version) this.index = buildIndex(this.map);
    this.pending += chunk;
    const hold = this.holdStart();
    return this.emit(hold);
  }

  flush(): string {
    return this.emit(this.pending.length);
  }

  private emit(upTo: number): string {
    if (upTo === 0) return '';
    const segment = this.pending.slice(0, upTo);
    this.pending = this.pending.slice(upTo);
    const result = rehydrateSegment(segment, this.index, this.json, this.lastEmitted);
    this.restoredCount += result.restored;
    this.unknownTokens.push(...result.unknown);
    this.lastEmitted = (this.lastEmitted + segment).slice(-BOUNDARY_CONTEXT);
    return result.text;
  }

  /** Earliest position from which the pending text could still become (part of) a known token. */
  private holdStart(): number {
    const text = this.pending;
    if (this.index.values.size === 0) return text.length;
    // Room for the token, two escape characters per underscore and a glued ending.
    const window = this.index.maxLength * 3 + MAX_GLUED_LETTERS;
    for (let i = Math.max(0, text.length - window); i < text.length; i++) {
      const ch = text[i]!;
      if (ch !== 'T' && ch !== 't') continue;
      if (!boundaryBefore(contextBefore(text, i, this.lastEmitted, this.json), this.json)) continue;
      if (this.couldBeToken(text.slice(i))) return i;
    }
    return text.length;
  }

  private couldBeToken(tail: string): boolean {
    // A trailing backslash may be the start of an escaped underscore.
    const canonical = canonicalToken(trimEndWhere(tail, (c) => c === 92));
    if (canonical.length === 0 || this.index.prefixes.has(canonical)) return true;
    // A complete token followed by letters up to the end of the text: the ending may still grow, or a
    // digit may arrive and turn it into a different token, so wait for the next character.
    for (let n = 1; n <= MAX_GLUED_LETTERS && n < canonical.length; n++) {
      if (!/^[A-Z]+$/.test(canonical.slice(canonical.length - n))) break;
      if (this.index.values.has(canonical.slice(0, canonical.length - n))) return true;
    }
    return false;
  }
}
