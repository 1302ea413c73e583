/**
 * A hand-written fact and its hand-written variants. The generator (generate.ts) turns each fact into
 * labelled cases; see README.md.
 */
export interface Fact {
  id: string;
  lang: 'en' | 'fr' | 'de';
  /** The source document that states the fact. */
  doc: string;
  /** A decoy document on a near subject that shares names and numbers with the fact. */
  decoy: string;
  /** A supported paraphrase; contains num[0], date[0] and ent[0] verbatim. */
  sup: string;
  /** A second supported paraphrase; contains num[0] verbatim. */
  alt: string;
  /** [original, replacement] substituted in `sup` for the swap cases (contradicted). */
  num: [string, string];
  date: [string, string];
  ent: [string, string];
  /** The fact negated (contradicted). */
  neg: string;
  /** A claim about the same subject that no source states (unsupported). */
  add: string;
  /** An antonym or quantifier flip (contradicted). */
  flip: string;
}
