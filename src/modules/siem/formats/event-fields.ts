import { isIP } from 'node:net';
import type { SiemEvent } from './types.js';

export interface PatternHit {
  type: string;
  match: string;
  score: number | null;
}

/** The fields every format knows how to place, read defensively from the free-form event data. */
export interface EventFields {
  riskScore: number | null;
  /** Detection category (DAN_JAILBREAK…) or DLP type (CREDIT_CARD…). */
  detail: string | null;
  /** DLP domain (FINANCIAL…). */
  domain: string | null;
  action: string | null;
  blocked: boolean | null;
  /** Only a syntactically valid IP, since ECS maps source.ip as type ip and one bad value fails the item. */
  sourceIp: string | null;
  userId: string | null;
  userAgent: string | null;
  apiKeyId: string | null;
  endpoint: string | null;
  preview: string | null;
  findingsCount: number | null;
  patterns: PatternHit[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function eventFields(ev: SiemEvent): EventFields {
  const d = ev.data;
  const ip = str(d['sourceIp']);
  const rawPatterns = Array.isArray(d['patterns']) ? d['patterns'] : [];
  const patterns: PatternHit[] = [];
  for (const p of rawPatterns) {
    if (p === null || typeof p !== 'object') continue;
    const o = p as Record<string, unknown>;
    patterns.push({
      type: str(o['type']) ?? str(o['category']) ?? 'unknown',
      match: str(o['match']) ?? '',
      score: num(o['score']),
    });
  }
  return {
    riskScore: num(d['riskScore']),
    detail: str(d['category']) ?? str(d['type']),
    domain: str(d['domain']),
    action: str(d['action']),
    blocked: typeof d['blocked'] === 'boolean' ? d['blocked'] : null,
    sourceIp: ip !== null && isIP(ip) !== 0 ? ip : null,
    userId: str(d['userId']),
    userAgent: str(d['userAgent']),
    apiKeyId: str(d['apiKeyId']),
    endpoint: str(d['endpoint']),
    preview: str(d['inputPreview']) ?? str(d['redactedPreview']),
    findingsCount: num(d['findingsCount']),
    patterns,
  };
}

/** One human-readable line, e.g. "detection.high_severity DAN_JAILBREAK BLOCKED risk=92". */
export function summary(ev: SiemEvent, f: EventFields = eventFields(ev)): string {
  const parts = [ev.type];
  if (f.detail !== null) parts.push(f.detail);
  if (f.action !== null) parts.push(f.action);
  if (f.riskScore !== null) parts.push(`risk=${f.riskScore}`);
  return parts.join(' ');
}

/** Epoch milliseconds of the event time, falling back to 0 only for an unparseable timestamp. */
export function eventTimeMs(ev: SiemEvent): number {
  const t = Date.parse(ev.timestamp);
  return Number.isNaN(t) ? 0 : t;
}
