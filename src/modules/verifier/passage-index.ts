import {
  analysePassage,
  buildCorpus,
  clausesOf,
  type Corpus,
  type Prepared,
} from '../../engines/hallucination/index.js';
import type { PassageRecord } from './verifier.repo.js';

export interface PassageMeta {
  sourceId: string;
  documentId: string;
  citation: string;
  text: string;
}

/**
 * Every indexed passage in the engine's corpus (BM25 postings plus the analysed sentences the alignment
 * reads), rebuilt from the store after each refresh. Passages of one document form one group.
 */
export interface PassageIndex {
  corpus: Corpus;
  meta: PassageMeta[];
  builtAt: Date;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Passages analysed between two turns of the event loop while an index is built (a few milliseconds' work). */
const ANALYSE_CHUNK = 64;

/**
 * `previous`: the index this one replaces. Passages it already analysed (same text) are not analysed again,
 * so a refresh of one source costs that source's new passages plus the postings, not every passage.
 * New passages are analysed in chunks with the event loop let go between them: analysis is most of a build
 * (seconds for 10,000 passages), and verify calls meanwhile go on against the previous index.
 */
export async function buildPassageIndex(
  records: PassageRecord[],
  builtAt: Date,
  previous?: PassageIndex,
): Promise<PassageIndex> {
  // Document order, the same on every build: the store pages passages by id, and ids made in the same
  // millisecond sort at random, which changed BM25 ties and which slots a document's summary keeps, so the
  // same sources could give other verdicts after a restart.
  const ordered = [...records].sort(
    (a, b) =>
      cmp(a.source_id, b.source_id) ||
      cmp(a.citation, b.citation) ||
      cmp(a.document_id, b.document_id) ||
      a.position - b.position,
  );
  const groups = new Map<string, number>();
  const texts: string[] = [];
  const groupOf: number[] = [];
  const meta: PassageMeta[] = [];
  for (const r of ordered) {
    let g = groups.get(r.document_id);
    if (g === undefined) {
      g = groups.size;
      groups.set(r.document_id, g);
    }
    texts.push(r.text);
    groupOf.push(g);
    meta.push({ sourceId: r.source_id, documentId: r.document_id, citation: r.citation, text: r.text });
  }
  const analysed = new Map<string, Prepared[]>();
  previous?.meta.forEach((m, i) => {
    analysed.set(m.text, previous.corpus.sentences[i]!);
  });
  let fresh = 0;
  for (const text of texts) {
    if (analysed.has(text)) continue;
    const list = analysePassage(text);
    // The atomic clauses of every sentence, split now rather than on a verify call's first look at the
    // sentence: that was a third of a verify call's CPU on 10,000 passages, where most candidates are seen
    // for the first time. Kept on the sentence, so a rebuild that reuses it does not split it again.
    for (const sentence of list) clausesOf(sentence);
    analysed.set(text, list);
    if (++fresh % ANALYSE_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return { corpus: buildCorpus(texts, groupOf, analysed), meta, builtAt };
}

/** The index before anything is stored. */
export function emptyPassageIndex(builtAt: Date): PassageIndex {
  return { corpus: buildCorpus([]), meta: [], builtAt };
}
