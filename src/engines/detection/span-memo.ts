/**
 * A small memo of values by word, looked up by the word's span in a text, so that a word seen lately costs
 * no string: a slice and a map lookup per word were much of the garbage of a long text (#15), in the
 * similarity, the model's features and the pattern candidates alike. Direct-mapped: the slot picked by the
 * word's hash holds the last word stored there and its value, and a hit is confirmed by comparing the
 * characters, so a collision only costs a miss. Words longer than KEEP_MAX characters are not kept: V8
 * makes a longer slice a view of the whole text, which the memo would keep alive.
 */
const KEEP_MAX = 12;

/**
 * How many leading characters of a word its hash needs to read: the hash only picks a slot (a hit is
 * confirmed by the characters) and no longer word is kept, so hashing a long token whole (100 KB of "a")
 * would buy nothing.
 */
export const HASHED_CHARS = KEEP_MAX;

export class SpanMemo<T> {
  private readonly words: (string | undefined)[];
  private readonly values: (T | undefined)[];
  private readonly mask: number;

  /** `slots` must be a power of two. */
  constructor(slots: number) {
    this.words = new Array(slots).fill(undefined);
    this.values = new Array(slots).fill(undefined);
    this.mask = slots - 1;
  }

  /**
   * The value stored for the word text[start, end) when it is in its slot; `hash` is a hash of its
   * characters (of its first HASHED_CHARS at least), the same as given to `set` for that word.
   */
  get(text: string, start: number, end: number, hash: number): T | undefined {
    const slot = hash & this.mask;
    const known = this.words[slot];
    if (known === undefined || known.length !== end - start) return undefined;
    for (let k = 0; k < known.length; k++)
      if (known.charCodeAt(k) !== text.charCodeAt(start + k)) return undefined;
    return this.values[slot];
  }

  /** Stores the value of `word`, whose hash (the same as given to `get`) is `hash`. */
  set(word: string, hash: number, value: T): void {
    if (word.length > KEEP_MAX) return;
    const slot = hash & this.mask;
    this.words[slot] = word;
    this.values[slot] = value;
  }
}

/** FNV-1a over UTF-16 code units, one step: the hash callers of SpanMemo fold each character into. */
export const FNV_START = 0x811c9dc5 | 0;
export const fnvStep = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);
