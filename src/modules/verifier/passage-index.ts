import { buildCorpus, type Corpus } from '../../engines/hallucination/index.js';
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

export function buildPassageIndex(records: PassageRecord[], builtAt: Date): PassageIndex {
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
  return { corpus: buildCorpus(texts, groupOf), meta, builtAt };
}
