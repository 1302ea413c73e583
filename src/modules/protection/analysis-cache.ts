import { createHash, type Hash, hash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type AnalysisResult,
  type DetectionOptions,
  MODEL_VERSION,
  type PatternMatch,
} from '../../engines/detection/index.js';
import { SecondChanceMap } from './second-chance.js';

/**
 * Entries kept: a few long agent sessions' worth (a request reads up to MAX_READ_TEXTS = 5,000 texts). A
 * constant like the DLP found cache's (tokenize.ts): the bounds are about this process's memory, not a
 * setting an organization or an operator tunes.
 */
export const ANALYSIS_CACHE_ENTRIES = 20_000;
/**
 * Estimated heap bytes kept (sizeOf): a text full of attacks carries up to 50 matches, so the entries bound
 * alone would let such results take several times the memory of harmless ones.
 */
export const ANALYSIS_CACHE_BYTES = 32 * 1024 * 1024;

/** Part of the key's layout: changing how keys are built changes it, so no old entry is read as new. */
const KEY_FORMAT = 'parapet.analysis/1';
/** Texts are hashed in slices of this many characters, with a turn of the event loop every YIELD_CHARS. */
const SLICE_CHARS = 128 * 1024;
const YIELD_CHARS = 512 * 1024;
/** What keying one text costs besides hashing its characters, in characters hashed in the same time. */
const PER_TEXT_CHARS = 2048;
/** Inline canonical texts longer than this are represented by their digest (see canonical). */
const INLINE_CHARS = 256;

/** ES2024, in Node 20's V8; the project's lib is ES2023. */
type WellFormedString = string & { isWellFormed(): boolean };
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

type StoredMatch = Omit<PatternMatch, 'match'>;
type StoredResult = Readonly<Omit<AnalysisResult, 'matches'>> & { readonly matches: readonly StoredMatch[] };

export interface AnalysisCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
}

/** One text to key: what analyzeEach reads. */
export interface KeyedText {
  text: string;
  options: DetectionOptions;
}

/**
 * Injection analyses already made, by a SHA-256 of (key format, model version, organization, the text's
 * encoding, the detection options used, text). A Responses agent loop, and any chat client, resends the
 * whole session with every turn: without it every earlier tool output was analysed again on each turn, so a
 * session cost the square of its length. The verdict depends only on the text, the options (the
 * organization's thresholds and allow-phrases, the context or source) and the engine, which is pure and
 * deterministic: the engine's code and patterns cannot change within a process, and this cache dies with
 * it; the model version is in the key anyway, so weights loaded at run time would never be answered with an
 * old verdict. The organization is in the key so nothing is shared between organizations (even with
 * identical settings: a hit would tell one organization what another sent). Only successful analyses are
 * stored (the caller stores what compute returned; a budget or queue failure throws before), and no text:
 * matches keep their offsets and get their fragment back from the text being checked, whose hash found
 * them.
 */
export function createAnalysisCache(opts: AnalysisCacheOptions = {}) {
  const maxEntries = opts.maxEntries ?? ANALYSIS_CACHE_ENTRIES;
  const maxBytes = opts.maxBytes ?? ANALYSIS_CACHE_BYTES;
  const entries = new SecondChanceMap<StoredResult>(maxEntries, maxBytes);
  const counts = { hits: 0, misses: 0 };

  return {
    /**
     * The key of each text, on the event loop (a trip to a worker would cost what the cache saves on small
     * texts). SHA-256 runs at 350 MB/s on a 2-core VM without SHA instructions: 5,000 texts of 2 KB took
     * 65 ms in all (their analysis about 3 s), one of 10 M characters 30 ms. So the texts are hashed in
     * slices and the event loop gets a turn after each YIELD_CHARS characters (the longest stretch
     * measured 6 to 11 ms). The caller builds every option before, so no setting changes in between.
     */
    async keysFor(orgId: string, items: readonly KeyedText[]): Promise<string[]> {
      // The organization's settings objects are shared by the options of all the texts of a request:
      // their canonical form (a digest when long: 200 allow-phrases are up to 100 KB) is made once.
      const memo = new Map<object, string>();
      // The hash state after each distinct prefix (organization, options, encoding), copied for each text.
      const started = new Map<string, Hash>();
      const keys: string[] = [];
      let sinceYield = 0;
      for (const { text, options } of items) {
        // UTF-8 is lossless for a well-formed string only: it writes a lone surrogate as U+FFFD, so two
        // different texts would hash alike. Such a text is hashed as its UTF-16 code units instead (twice
        // the bytes for ASCII, which is why it is not the rule); the encoding is part of the key.
        const encoding = (text as WellFormedString).isWellFormed() ? 'utf8' : 'utf16le';
        // A canonical text holds no raw newline (JSON escapes it; a digest is base64): the newline ends it.
        const prefix = canonical([KEY_FORMAT, MODEL_VERSION, orgId, encoding, options], memo);
        let base = started.get(prefix);
        if (!base) {
          base = createHash('sha256').update(prefix).update('\n');
          started.set(prefix, base);
        }
        const h = base.copy();
        let at = 0;
        while (at < text.length) {
          let end = Math.min(at + SLICE_CHARS, text.length);
          // A slice never ends between the two halves of a pair, which UTF-8 would write as two U+FFFD.
          if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
          h.update(text.slice(at, end), encoding);
          sinceYield += end - at;
          at = end;
          if (sinceYield >= YIELD_CHARS) {
            sinceYield = 0;
            await nextTurn();
          }
        }
        // Each text costs a hash object and its options' canonical text besides its characters.
        sinceYield += PER_TEXT_CHARS;
        keys.push(h.digest('base64'));
      }
      return keys;
    },

    /** The analysis of `text` stored under `key`, with the matched fragments read back from `text`. */
    get(key: string, text: string): AnalysisResult | undefined {
      const stored = entries.get(key);
      if (!stored) {
        counts.misses++;
        return undefined;
      }
      counts.hits++;
      // A new object and new matches; the rest is frozen: a reader cannot change a later request's verdict.
      return {
        ...stored,
        matches: stored.matches.map((m) => ({ ...m, match: text.slice(m.start, m.end) })),
      } as AnalysisResult;
    },

    /** Stores a successful analysis of `text` (never a failed one: the caller has nothing to store then). */
    set(key: string, text: string, result: AnalysisResult): void {
      // The engine takes each fragment from the text at its offsets; anything else would not come back
      // alike from the text, so it is not stored (analysed again next time).
      if (result.matches.some((m) => m.match !== text.slice(m.start, m.end))) return;
      const stored = storedOf(result);
      const size = sizeOf(stored);
      if (size > maxBytes / 16) return;
      entries.set(key, stored, size);
    },

    stats(): { hits: number; misses: number; evictions: number; size: number; bytes: number } {
      return { ...counts, evictions: entries.evictions, size: entries.size, bytes: entries.bytes };
    },
  };
}

export type AnalysisCache = ReturnType<typeof createAnalysisCache>;

/**
 * A canonical text of JSON-like options: object keys sorted, undefined members left out, strings as JSON
 * writes them (a lone surrogate escaped). A long object or array stands as `#` and the SHA-256 of its own
 * canonical text (no JSON text starts with `#`), memoized by identity for the request.
 */
function canonical(value: unknown, memo: Map<object, string>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const known = memo.get(value);
  if (known !== undefined) return known;
  let body: string;
  if (Array.isArray(value)) {
    body = `[${value.map((v) => canonical(v, memo)).join(',')}]`;
  } else {
    const obj = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const k of Object.keys(obj).sort()) {
      if (obj[k] !== undefined) parts.push(`${JSON.stringify(k)}:${canonical(obj[k], memo)}`);
    }
    body = `{${parts.join(',')}}`;
  }
  const text = body.length > INLINE_CHARS ? `#${hash('sha256', body, 'base64')}` : body;
  memo.set(value, text);
  return text;
}

/**
 * A frozen copy of `result` without the matched fragments, sharing nothing with it (the engine may reuse what
 * it returned). Field by field: structuredClone, or rest and spread, took 15 to 25 µs a result, up to 100 ms
 * on the event loop for a request of 5,000 new texts. The cache test compares what comes back with real
 * analyses, so a field added to AnalysisResult and not copied here fails it.
 */
function storedOf(r: AnalysisResult): StoredResult {
  const d = r.details;
  const details: AnalysisResult['details'] = {
    tfidf_score: d.tfidf_score,
    pattern_matches: d.pattern_matches,
    semantic_similarity: d.semantic_similarity,
    obfuscation: Object.freeze(d.obfuscation.slice()) as string[],
    top_signal: d.top_signal,
  };
  if (d.language !== undefined) details.language = d.language;
  if (d.model) details.model = Object.freeze({ ...d.model });
  const matches: StoredMatch[] = [];
  for (const m of r.matches) {
    matches.push(
      Object.freeze({
        patternId: m.patternId,
        category: m.category,
        start: m.start,
        end: m.end,
        weight: m.weight,
      }),
    );
  }
  return Object.freeze({
    score: r.score,
    severity: r.severity,
    action: r.action,
    categories: Object.freeze(r.categories.slice()) as string[],
    safe: r.safe,
    details: Object.freeze(details),
    matches: Object.freeze(matches),
  });
}

/**
 * Estimated heap bytes of one entry: the map slot, key and entry, the result's fixed fields, then per
 * match and per listed string. Calibrated on V8's heap with 20,000 stored analyses: about 860 bytes an
 * entry without matches, 2,900 with 26 (a text repeating an attack).
 */
function sizeOf(r: StoredResult): number {
  return (
    ENTRY_BYTES +
    r.matches.length * MATCH_BYTES +
    (r.categories.length + r.details.obfuscation.length) * LIST_ITEM_BYTES
  );
}
const ENTRY_BYTES = 900;
const MATCH_BYTES = 80;
const LIST_ITEM_BYTES = 16;
