/**
 * A map bounded by its number of entries and, optionally, an estimate of their bytes, evicting by second
 * chance: the oldest entry not read since the sweep last passed it goes; one read since goes to the back
 * instead, unmarked. Close to least recently used without moving an entry on every read: a delete and a set
 * per hit (thousands a request for a resent history) made the map rebuild its table over and over, and
 * those tables went straight to the old generation. The proxies' caches of DLP findings (tokenize.ts) and
 * of injection analyses (analysis-cache.ts) both keep a conversation's history this way while the new turns
 * of many conversations pass through.
 */
export class SecondChanceMap<V> {
  private readonly entries = new Map<string, { value: V; bytes: number; used: boolean }>();
  private total = 0;
  /** Entries dropped to stay within the bounds. */
  evictions = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes of the entries held (what `set` was told). */
  get bytes(): number {
    return this.total;
  }

  /** The value under `key`, marked as read (it survives the next sweep that passes it). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  /**
   * Stores `value` (replacing one under the same key), evicting first until it fits: evicted after, the new
   * entry would be the sweep's first unread one whenever every older entry had been read.
   */
  set(key: string, value: V, bytes = 0): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.bytes;
    }
    while (
      this.entries.size > 0 &&
      (this.entries.size + 1 > this.maxEntries || this.total + bytes > this.maxBytes)
    ) {
      this.evictOne();
    }
    this.entries.set(key, { value, bytes, used: false });
    this.total += bytes;
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.used) {
        this.total -= entry.bytes;
        this.evictions++;
        return;
      }
      entry.used = false;
      this.entries.set(key, entry);
    }
  }
}
