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

export class Bm25Index {
  /** Postings: for each term, the units that contain it and how often. */
  private readonly postings = new Map<string, Array<[doc: number, tf: number]>>();
  private readonly lengths: number[];
  private readonly count: number;
  private readonly avgLength: number;

  constructor(docs: Bm25Doc[]) {
    this.count = docs.length;
    docs.forEach((d, doc) => {
      const tf = new Map<string, number>();
      for (const t of d.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        const list = this.postings.get(t);
        if (list) list.push([doc, f]);
        else this.postings.set(t, [[doc, f]]);
      }
    });
    this.lengths = docs.map((d) => d.terms.length);
    const total = this.lengths.reduce((a, b) => a + b, 0);
    this.avgLength = docs.length > 0 ? total / docs.length : 1;
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
    const df = this.postings.get(term)?.length ?? 0;
    return Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
  }

  search(query: Map<string, number>, k: number): Bm25Hit[] {
    const scores = new Map<number, number>();
    for (const [t, w] of query) {
      const list = this.postings.get(t);
      if (!list) continue;
      const weight = w * this.idf(t);
      for (const [doc, f] of list) {
        const norm = K1 * (1 - B + (B * this.lengths[doc]!) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (weight * (f * (K1 + 1))) / (f + norm));
      }
    }
    const hits: Bm25Hit[] = [];
    for (const [doc, score] of scores) if (score > 0) hits.push({ doc, score });
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return hits.slice(0, k);
  }
}
