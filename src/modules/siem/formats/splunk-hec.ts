import { eventFields, eventTimeMs } from './event-fields.js';
import type { SiemEvent } from './types.js';

export interface HecOptions {
  host: string;
  source: string;
  sourcetype: string;
  index?: string | undefined;
}

/**
 * The spec's forwarded-event envelope. `time` is the event's own time in epoch seconds (fractional, so
 * Splunk keeps the milliseconds); `fields.event_id` is an indexed field for de-duplication after re-sends.
 */
export function hecEnvelope(ev: SiemEvent, opts: HecOptions): Record<string, unknown> {
  const f = eventFields(ev);
  const envelope: Record<string, unknown> = {
    time: eventTimeMs(ev) / 1000,
    host: opts.host,
    source: opts.source,
    sourcetype: opts.sourcetype,
  };
  if (opts.index !== undefined && opts.index !== '') envelope['index'] = opts.index;
  envelope['event'] = {
    eventId: ev.id,
    eventType: ev.type,
    severity: ev.severity,
    riskScore: f.riskScore,
    category: f.detail ?? ev.category,
    eventCategory: ev.category,
    organizationId: ev.organizationId,
    userId: f.userId,
    inputPreview: f.preview,
    action: f.action,
    patterns: f.patterns.map((p) => ({ category: p.type, match: p.match, score: p.score })),
    sourceIp: f.sourceIp,
    userAgent: f.userAgent,
    timestamp: ev.timestamp,
    data: ev.data,
  };
  envelope['fields'] = { event_id: ev.id, organization_id: ev.organizationId, event_category: ev.category };
  return envelope;
}

/** HEC batches are envelopes concatenated with no array and no commas; a newline keeps them readable. */
export function hecBatch(events: readonly SiemEvent[], opts: HecOptions): string {
  let out = '';
  for (const ev of events) out += `${JSON.stringify(hecEnvelope(ev, opts))}\n`;
  return out;
}
