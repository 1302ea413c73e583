import { SEVERITY_RANK } from '../formats/severity.js';
import { SIEM_CATEGORIES, type SiemEvent, type SiemSeverity } from '../formats/types.js';

export interface ForwardingRules {
  /**
   * Categories (DETECTION, DLP, AUTHENTICATION, AUDIT), exact event types ("dlp.blocked") or type prefixes
   * ("dlp.*"), case-insensitive. Absent: see effectiveEventTypes.
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

/** The reseller shapes of the spec: no eventTypes, their forwardDetections/forwardDlp flags choose. */
const DETECTION_DLP_SHAPES: ReadonlySet<string> = new Set(['PRELUDE', 'WAZUH', 'OPENSEARCH']);

/**
 * What an integration forwards, as the API shows it: its own `eventTypes` when given; else, for the
 * PRELUDE, WAZUH and OPENSEARCH shapes (intrusion-detection consoles the spec gives only the two flags),
 * DETECTION and DLP as their flags allow; else every category, since a security team reading a syslog or
 * Splunk SIEM expects logins and audit changes there without having to ask.
 */
export function effectiveEventTypes(platform: string, rules: ForwardingRules): string[] {
  if (rules.eventTypes !== undefined) return [...rules.eventTypes];
  if (DETECTION_DLP_SHAPES.has(platform.toUpperCase())) {
    return [
      ...(rules.forwardDetections === false ? [] : ['DETECTION']),
      ...(rules.forwardDlp === false ? [] : ['DLP']),
    ];
  }
  return [...SIEM_CATEGORIES];
}

export function shouldForward(rules: ForwardingRules & { eventTypes: readonly string[] }, ev: SiemEvent): boolean {
  if (SEVERITY_RANK[ev.severity] < severityRank(rules.minSeverity)) return false;
  return rules.eventTypes.some((t) => typeMatches(t, ev));
}
