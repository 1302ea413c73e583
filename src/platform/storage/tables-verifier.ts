/** Row types of the verification server's own store (verifier-migrations/). Portable conventions of tables.ts. */
export interface VerifierKeysTable {
  id: string;
  name: string;
  /** admin (sources, validation) or user (verify, score). */
  role: string;
  /** The first characters of the secret, to tell keys apart in listings. */
  prefix: string;
  /** SHA-256 of the secret; the secret itself is shown once and never stored. */
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface VerifierSourcesTable {
  id: string;
  type: string;
  name: string;
  /** The URL with any user name, password or query secrets removed: what listings and citations show. */
  shown_url: string;
  /** The full target (URL, connection string, path) and credentials (headers), sealed with the master key. */
  sealed_target: string;
  crawl_depth: number;
  refresh_interval: string;
  status: string;
  status_reason: string | null;
  document_count: number;
  passage_count: number;
  validated_at: string | null;
  validated_by: string | null;
  last_indexed_at: string | null;
  next_refresh_at: string | null;
  created_at: string;
}

export interface VerifierDocumentsTable {
  id: string;
  source_id: string;
  /** What a claim cites: a page URL, a file name (and page), a table row's primary key. */
  citation: string;
  title: string | null;
  etag: string | null;
  last_modified: string | null;
  /** Web pages: the links followed from it (JSON array), so a page answered 304 still leads on. */
  links: string | null;
  content_hash: string;
  fetched_at: string;
}

export interface VerifierPassagesTable {
  id: string;
  source_id: string;
  document_id: string;
  position: number;
  text: string;
}

export interface VerifierSettingsTable {
  name: string;
  value: string;
  updated_at: string;
}

export interface VerifierDatabase {
  verifier_keys: VerifierKeysTable;
  verifier_sources: VerifierSourcesTable;
  verifier_documents: VerifierDocumentsTable;
  verifier_passages: VerifierPassagesTable;
  verifier_settings: VerifierSettingsTable;
}
