import { eventFields, eventTimeMs, summary } from './event-fields.js';
import { DATADOG_STATUS } from './severity.js';
import type { SiemEvent } from './types.js';

export interface DatadogOptions {
  service: string;
  env?: string | undefined;
  tags?: readonly string[] | undefined;
  hostname: string;
}

/** Datadog's documented intake limits. */
export const DATADOG_MAX_ENTRIES = 1000;
export const DATADOG_MAX_PAYLOAD_BYTES = 5 * 1024 * 1024;
export const DATADOG_MAX_ENTRY_BYTES = 1024 * 1024;

const tagValue = (v: string) => v.replace(/[,\s]+/g, '_');

/**
 * One log entry: reserved attributes (ddsource, ddtags, hostname, service, status, message), Datadog
 * standard attributes (evt.*, usr.id, network.client.ip) and the whole event under `parapet`. `timestamp`
 * is the event's epoch ms; Datadog refuses entries older than 18 h, so `parapet.timestamp` keeps the true
 * time when a backlog is replayed and the intake re-times it.
 */
export function datadogEntry(ev: SiemEvent, opts: DatadogOptions): Record<string, unknown> {
  const f = eventFields(ev);
  const tags = [
    ...(opts.env ? [`env:${tagValue(opts.env)}`] : []),
    `event_category:${ev.category.toLowerCase()}`,
    `severity:${ev.severity.toLowerCase()}`,
    ...(opts.tags ?? []),
  ];
  const entry: Record<string, unknown> = {
    ddsource: 'parapet',
    ddtags: tags.join(','),
    hostname: opts.hostname,
    service: opts.service,
    status: DATADOG_STATUS[ev.severity],
    message: summary(ev, f),
    timestamp: eventTimeMs(ev),
    evt: { id: ev.id, name: ev.type, category: ev.category, outcome: f.action ?? undefined },
    organization: { id: ev.organizationId },
    parapet: {
      id: ev.id,
      type: ev.type,
      category: ev.category,
      severity: ev.severity,
      timestamp: ev.timestamp,
      riskScore: f.riskScore,
      data: ev.data,
    },
  };
  if (f.userId !== null) entry['usr'] = { id: f.userId };
  if (f.sourceIp !== null) entry['network'] = { client: { ip: f.sourceIp } };
  if (f.userAgent !== null) entry['http'] = { useragent: f.userAgent };
  return entry;
}

/**
 * Splits entries into JSON array payloads within the intake limits (entry count and uncompressed bytes).
 * An entry that alone exceeds the payload limit still gets its own payload; the intake truncates it.
 */
export function datadogPayloads(entries: readonly Record<string, unknown>[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const e of entries) {
    const json = JSON.stringify(e);
    const size = Buffer.byteLength(json) + 1;
    if (
      current.length > 0 &&
      (current.length >= DATADOG_MAX_ENTRIES || bytes + size > DATADOG_MAX_PAYLOAD_BYTES)
    ) {
      out.push(`[${current.join(',')}]`);
      current = [];
      bytes = 2;
    }
    current.push(json);
    bytes += size;
  }
  if (current.length > 0) out.push(`[${current.join(',')}]`);
  return out;
}
