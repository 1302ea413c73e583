/**
 * The last few values computed for objects, looked up by identity.
 *
 * Used instead of a WeakMap where the keys are made per request (a session's HMAC key, a request's token
 * map): V8 keeps a WeakMap's entries until a full collection even when their keys die young, so a weak
 * cache keyed by per-request objects promotes its values, and what they point to, to the old generation,
 * and full collections come sooner (bench/netproxy/survivors.ts showed these entries surviving at 84–104 %
 * against 1–5 % for a request's other objects). The values are wanted within one burst of calls (the
 * tokens of one text, the strings of one response body), so a handful of recent entries is enough, and
 * an entry is released once `size` newer keys have been seen.
 */
export class RecentByIdentity<K extends object, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError('RecentByIdentity needs a size of 1 or more');
    this.keys = new Array<K | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  get(key: K): V | undefined {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] === key) return this.values[i];
    return undefined;
  }

  set(key: K, value: V): void {
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] === key) {
        this.values[i] = value;
        return;
      }
    }
    // The oldest slot goes: a ring, so the most recent `size` keys are kept.
    this.keys[this.next] = key;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.keys.length;
  }
}
