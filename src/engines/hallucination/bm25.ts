/** Okapi BM25 over retrieval units (sentences and short windows of sentences). */
export interface Bm25Doc {
  terms: string[];
}

export interface Bm25Hit {
  doc: number;
  score: number;
}

const K1 = 1.2;
const B = 0.75;
/**
 * Postings read per query. Terms are read rarest first; the list that reaches the budget is read only up to
 * it (its first units, in source order) and later terms are left out. Such terms are in so many units that
 * their IDF adds little, and reading their lists in full for every clause of the claim made retrieval
 * claim × source (#15).
 */
const MAX_POSTINGS_PER_QUERY = 8_192;

export class Bm25Index {
  /**
   * Postings: for each term, the units that contain it and how often, as (unit, count) pairs laid out flat in
   * one typed array for all terms; term i's pairs are `flat[starts[i] .. starts[i + 1])`. Arrays of
   * [unit, count] tuples were about 40 bytes a posting and a pointer to follow per read; one typed array per
   * term cost an ArrayBuffer each (hundreds of thousands of terms on 10,000 passages).
   */
  private readonly termIds = new Map<string, number>();
  private readonly starts: Int32Array;
  private readonly flat: Int32Array;
  private readonly lengths: number[];
  private readonly count: number;
  private readonly avgLength: number;
  /** K1 · (1 − B + B · length / avgLength) per unit, computed once instead of per posting read. */
  private readonly norms: Float64Array;
  /**
   * Score accumulator reused by every search (one slot per unit, reset after use) and the units it touched:
   * a Map of thousands of entries per query was most of a verify call's time on 10,000 passages.
   */
  private readonly acc: Float64Array;
  private readonly touched: Int32Array;

  constructor(docs: Bm25Doc[]) {
    this.count = docs.length;
    const lists = new Map<string, number[]>();
    docs.forEach((d, doc) => {
      const tf = new Map<string, number>();
      for (const t of d.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        const list = lists.get(t);
        if (list) list.push(doc, f);
        else lists.set(t, [doc, f]);
      }
    });
    this.starts = new Int32Array(lists.size + 1);
    let size = 0;
    for (const list of lists.values()) size += list.length;
    this.flat = new Int32Array(size);
    let at = 0;
    for (const [t, list] of lists) {
      this.starts[this.termIds.size] = at;
      this.termIds.set(t, this.termIds.size);
      this.flat.set(list, at);
      at += list.length;
    }
    this.starts[this.termIds.size] = at;
    this.lengths = docs.map((d) => d.terms.length);
    const total = this.lengths.reduce((a, b) => a + b, 0);
    this.avgLength = docs.length > 0 ? total / docs.length : 1;
    this.norms = Float64Array.from(this.lengths, (l) => K1 * (1 - B + (B * l) / this.avgLength));
    this.acc = new Float64Array(docs.length);
    this.touched = new Int32Array(Math.min(docs.length, MAX_POSTINGS_PER_QUERY));
  }

  get size(): number {
    return this.count;
  }

  /**
   * Smoothed IDF (never negative), also used to weight claim terms when measuring coverage. A claim term no
   * source contains gets the highest weight: an unmatched rare word is the usual trace of an invented
   * detail, so coverage errs towards "unsupported" (measured: fewer contradicted FEVER claims pass).
   */
  idf(term: string): number {
    const id = this.termIds.get(term);
    const df = id === undefined ? 0 : (this.starts[id + 1]! - this.starts[id]!) / 2;
    return Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
  }

  search(query: Map<string, number>, k: number): Bm25Hit[] {
    const { acc, touched, norms, flat, starts } = this;
    const lists: Array<[start: number, end: number, weight: number, term: string]> = [];
    for (const [t, w] of query) {
      const id = this.termIds.get(t);
      if (id !== undefined) lists.push([starts[id]!, starts[id + 1]!, w, t]);
    }
    lists.sort((a, b) => a[1] - a[0] - (b[1] - b[0]) || (a[3] < b[3] ? -1 : 1));
    let n = 0;
    let read = 0;
    for (const [start, end, w, t] of lists) {
      const take = Math.min((end - start) / 2, MAX_POSTINGS_PER_QUERY - read);
      if (take <= 0) break;
      read += take;
      const weight = w * this.idf(t);
      for (let i = start; i < start + 2 * take; i += 2) {
        const doc = flat[i]!;
        const f = flat[i + 1]!;
        // A unit's first posting: remembered so that the ranking and the reset visit only touched units.
        if (acc[doc] === 0) touched[n++] = doc;
        acc[doc] = acc[doc]! + (weight * (f * (K1 + 1))) / (f + norms[doc]!);
      }
    }
    // The k best in one pass: sorting every scored unit cost n·log n per query.
    const hits: Bm25Hit[] = [];
    const better = (a: Bm25Hit, b: Bm25Hit) => a.score > b.score || (a.score === b.score && a.doc < b.doc);
    for (let j = 0; j < n; j++) {
      const doc = touched[j]!;
      const score = acc[doc]!;
      acc[doc] = 0;
      if (score <= 0) continue;
      // Most units do not make the top k: compared before an object is made for them.
      const last = hits.length === k ? hits[k - 1]! : undefined;
      if (last && !(score > last.score || (score === last.score && doc < last.doc))) continue;
      const hit = { doc, score };
      let i = Math.min(hits.length, k - 1);
      hits[i] = hit;
      while (i > 0 && better(hit, hits[i - 1]!)) {
        hits[i] = hits[i - 1]!;
        hits[i - 1] = hit;
        i--;
      }
    }
    return hits;
  }
}
