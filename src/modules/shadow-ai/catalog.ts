import { readFileSync } from 'node:fs';
import { canonicalHost } from '../../platform/http/index.js';
import type {
  CatalogCategory,
  CatalogStatus,
  GdprStatus,
  HeuristicSignal,
  RiskLevel,
  ServiceCategory,
} from './shadow-ai.schemas.js';

export interface CatalogEntry {
  id: string;
  name: string;
  domains: string[];
  category: CatalogCategory;
  dataResidency: string;
  gdprStatus: GdprStatus;
  status: CatalogStatus;
}

export interface Catalog {
  version: string;
  released: string;
  entries: CatalogEntry[];
}

/**
 * The shipped catalog: data built by scripts/build-ai-catalog.ts, one file per version. A catalog update is
 * a new file and this line; the version travels in the endpoint config and the catalog answer.
 */
export const CATALOG_FILE = new URL('./catalog/v1.json', import.meta.url);

export function loadCatalog(file: URL = CATALOG_FILE): Catalog {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Catalog & { entries: CatalogEntry[] };
  return { version: raw.version, released: raw.released, entries: raw.entries };
}

const CATEGORY_OF: Record<CatalogCategory, ServiceCategory> = {
  'LLM Chat': 'chatbot',
  'Code Assistant': 'code',
  'Image Gen': 'image',
  'Video Gen': 'video',
  'Audio/Voice': 'audio',
  Search: 'search',
  Writing: 'writing',
  Enterprise: 'enterprise',
};

export function serviceCategory(c: CatalogCategory): ServiceCategory {
  return CATEGORY_OF[c];
}

/**
 * Lower case, no trailing dot, no `www.`, a bracketed IPv6 address compressed (canonicalHost): the form
 * services are stored and matched in, so one service has one row whatever its spelling.
 */
export function normalizeDomain(host: string): string {
  return canonicalHost(host).replace(/^www\./, '');
}

/**
 * Finds the entry of a host: an entry's domain matches itself and its subdomains, and the longest match
 * wins (gemini.google.com belongs to Gemini even if another entry listed google.com).
 */
export function createDomainIndex<T extends { domains: string[] }>(entries: readonly T[]) {
  const byDomain = new Map<string, T>();
  for (const e of entries) for (const d of e.domains) byDomain.set(normalizeDomain(d), e);
  return (host: string): T | undefined => {
    let h = normalizeDomain(host);
    for (;;) {
      const hit = byDomain.get(h);
      if (hit) return hit;
      const dot = h.indexOf('.');
      if (dot < 0) return undefined;
      h = h.slice(dot + 1);
    }
  };
}

const GDPR_LEVEL: Record<GdprStatus, RiskLevel> = {
  eu: 'low',
  adequate: 'low',
  conditional: 'medium',
  not_adequate: 'high',
  unknown: 'unknown',
};
const LOWER: Record<RiskLevel, RiskLevel> = { high: 'medium', medium: 'low', low: 'low', unknown: 'unknown' };
// Media generators mostly receive short creative prompts, not pasted documents or records.
const MEDIA: ReadonlySet<CatalogCategory> = new Set(['Image Gen', 'Video Gen', 'Audio/Voice']);

/**
 * The derived risk level (docs/shadow-ai.md, "Risk level"):
 * - a catalog service: from where its data goes. GDPR status eu or adequate → low, conditional (US: only
 *   vendors certified under the Data Privacy Framework) → medium, not_adequate → high, unknown → unknown;
 *   media generators (image, video, audio) one step lower;
 * - an unknown service found by the heuristics: high when two or more distinct signals agree (an AI service
 *   no one vetted, with no known residency or contract), unknown on a single signal (it may not be AI).
 */
export function riskLevelOf(
  s:
    | { kind: 'catalog'; gdprStatus: GdprStatus; category: CatalogCategory }
    | { kind: 'heuristic'; signals: readonly HeuristicSignal[] },
): RiskLevel {
  if (s.kind === 'heuristic') return new Set(s.signals).size >= 2 ? 'high' : 'unknown';
  const level = GDPR_LEVEL[s.gdprStatus];
  return MEDIA.has(s.category) ? LOWER[level] : level;
}
