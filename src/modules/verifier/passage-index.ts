import { buildCorpus, clausesOf, type Corpus, type Prepared } from '../../engines/hallucination/index.js';
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

/**
 * `previous`: the index this one replaces. Passages it already analysed (same text) are not analysed again,
 * so a refresh of one source costs that source's new passages plus the postings, not every passage.
 */
export function buildPassageIndex(
  records: PassageRecord[],
  builtAt: Date,
  previous?: PassageIndex,
): PassageIndex {
  const groups = new Map<string, number>();
  const texts: string[] = [];
  const groupOf: number[] = [];
  const meta: PassageMeta[] = [];
  for (const r of records) {
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
  const corpus = buildCorpus(texts, groupOf, analysed);
  // The atomic clauses of every passage sentence, split now rather than on a verify call's first look at the
  // sentence: that was a fifth of a verify call's CPU on 10,000 passages, where most candidates are seen for
  // the first time. Kept on the sentence, so a rebuild that reuses it does not split it again.
  for (const list of corpus.sentences) for (const sentence of list) clausesOf(sentence);
  return { corpus, meta, builtAt };
}
