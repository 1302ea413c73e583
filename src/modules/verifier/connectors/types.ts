import type { Outbound } from '../../../platform/net/index.js';
import type { OwnData } from './local-file.js';

/** Everything a connector needs to reach a source; sealed at rest as JSON (it may hold credentials). */
export interface SourceTarget {
  url: string;
  crawlDepth: number;
  allowedHosts?: string[];
  headers?: Record<string, string>;
  tables?: string[];
  query?: string;
  keyColumn?: string;
  /** An uploaded file's stored copy and its original name. */
  storedFile?: string;
  fileName?: string;
}

/** A document as the connector read it. */
export interface FetchedDocument {
  citation: string;
  title: string | null;
  text: string;
  etag?: string | null;
  lastModified?: string | null;
  links?: string[] | null;
  /** Already cut (database rows, CSV rows); otherwise the text is cut into passages. */
  passages?: string[];
}

/** What the previous refresh stored, for conditional requests. */
export interface PreviousDocument {
  id: string;
  citation: string;
  etag: string | null;
  last_modified: string | null;
  links: string | null;
}

export interface ConnectorResult {
  documents: FetchedDocument[];
  /** Ids of previous documents that did not change (HTTP 304) and stay as they are. */
  unchanged: string[];
  /** Pages or rows skipped, with why: for the operator, not an error. */
  skipped: Array<{ what: string; reason: string }>;
}

export interface ConnectorDeps {
  outbound: Outbound;
  userAgent: string;
  maxPages: number;
  maxRows: number;
  /** The verifier's own files, never read as a source (file and sqlite: paths). */
  own: OwnData;
}

export class SourceError extends Error {}
