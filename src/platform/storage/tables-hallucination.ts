/** Row types of the hallucination module (migration 0005). Same portable conventions as tables.ts. */
export interface HallucinationCorrectionsTable {
  id: string;
  org_id: string;
  /** The claim the organization says is wrong. */
  original_claim: string;
  /** What is right instead; later checks cite it as evidence. */
  corrected_claim: string;
  /** Where the corrected fact comes from (a document, URL or person), as the caller wrote it. */
  source: string;
  /** The API key that stored it, for the audit trail; null when stored another way. */
  created_by_key: string | null;
  created_at: string;
}
