import { SEVERITY_RANK } from '../formats/severity.js';
import type { SiemEvent, SiemSeverity } from '../formats/types.js';

export interface ForwardingRules {
  /**
   * Categories (DETECTION, DLP, AUTHENTICATION, AUDIT), exact event types ("dlp.blocked") or type prefixes
   * ("dlp.*"), case-insensitive. Absent: the PRELUDE/WAZUH/OPENSEARCH shapes' forwardDetections/forwardDlp
   * flags decide, and those shapes forward only detections and DLP events.
   */
  eventTypes?: readonly string[] | undefined;
  /** LOW, MEDIUM, HIGH or CRITICAL ("INFO" reads as LOW). Absent: everything. */
  minSeverity?: string | undefined;
  forwardDetections?: boolean | undefined;
  forwardDlp?: boolean | undefined;
}

function severityRank(s: string | undefined): number {
  if (s === undefined) return 1;
  const up = s.toUpperCase();
  if (up === 'INFO') return 1;
  const rank = SEVERITY_RANK[up as SiemSeverity];
  // An unknown threshold must not silently drop every event: fall back to forwarding all.
  return rank ?? 1;
}

function typeMatches(entry: string, ev: SiemEvent): boolean {
  const e = entry.trim().toLowerCase();
  if (e === '*' || e === ev.category.toLowerCase() || e === ev.type.toLowerCase()) return true;
  return e.endsWith('.*') && ev.type.toLowerCase().startsWith(e.slice(0, -1));
}

export function shouldForward(rules: ForwardingRules, ev: SiemEvent): boolean {
  if (SEVERITY_RANK[ev.severity] < severityRank(rules.minSeverity)) return false;
  if (rules.eventTypes !== undefined) return rules.eventTypes.some((t) => typeMatches(t, ev));
  if (ev.category === 'DETECTION') return rules.forwardDetections !== false;
  if (ev.category === 'DLP') return rules.forwardDlp !== false;
  return false;
}
