import { eventFields, summary } from './event-fields.js';
import { ECS_SEVERITY } from './severity.js';
import type { SiemEvent } from './types.js';

export const ECS_VERSION = '8.11.0';

/** ECS categorisation per event category, restricted to ECS allowed values. */
function categorisation(ev: SiemEvent, blocked: boolean | null) {
  switch (ev.category) {
    case 'DETECTION':
    case 'DLP':
      return {
        kind: 'alert',
        category: ['intrusion_detection'],
        type: [blocked === true ? 'denied' : blocked === false ? 'allowed' : 'info'],
      };
    case 'AUTHENTICATION':
      return { kind: 'event', category: ['authentication'], type: ['info'] };
    case 'AUDIT':
      return { kind: 'event', category: ['configuration'], type: ['change'] };
  }
}

function outcome(ev: SiemEvent): 'success' | 'failure' | 'unknown' {
  const o = ev.data['outcome'];
  if (o === 'success' || o === 'failure') return o;
  if (typeof ev.data['success'] === 'boolean') return ev.data['success'] ? 'success' : 'failure';
  return 'unknown';
}

/**
 * An ECS document following the spec's index template: `service.risk_score` and nested `service.patterns`
 * carry our own fields under the neutral prefix, `organization.id` is the tenant, and `source.ip` is only set
 * when it is a real IP so that the `ip` mapping never rejects a document.
 */
export function ecsDocument(ev: SiemEvent): Record<string, unknown> {
  const f = eventFields(ev);
  const cat = categorisation(ev, f.blocked);
  const doc: Record<string, unknown> = {
    '@timestamp': ev.timestamp,
    ecs: { version: ECS_VERSION },
    message: summary(ev, f),
    event: {
      id: ev.id,
      kind: cat.kind,
      category: cat.category,
      type: cat.type,
      action: ev.type,
      outcome: outcome(ev),
      severity: ECS_SEVERITY[ev.severity],
      risk_score: f.riskScore ?? ECS_SEVERITY[ev.severity],
      dataset: 'parapet.security',
      module: 'parapet',
      provider: ev.category.toLowerCase(),
    },
    observer: { vendor: 'Parapet', product: 'Parapet', type: 'ai-firewall' },
    organization: { id: ev.organizationId },
    service: {
      risk_score: f.riskScore ?? undefined,
      patterns: f.patterns.map((p) => ({ type: p.type, match: p.match, score: p.score })),
    },
    labels: { severity: ev.severity, event_category: ev.category },
  };
  if (f.detail !== null) {
    doc['rule'] = { name: f.detail, category: f.domain ?? ev.category.toLowerCase() };
    if (ev.category === 'DETECTION') doc['threat'] = { indicator: { type: f.detail } };
  }
  if (f.userId !== null) doc['user'] = { id: f.userId };
  if (f.sourceIp !== null) doc['source'] = { ip: f.sourceIp };
  if (f.userAgent !== null) doc['user_agent'] = { original: f.userAgent };
  if (f.endpoint !== null) doc['url'] = { path: f.endpoint };
  if (f.action !== null) (doc['event'] as Record<string, unknown>)['reason'] = f.action;
  doc['parapet'] = { type: ev.type, data: ev.data };
  return doc;
}

const TOKEN = /\{([^{}]+)\}/g;

/**
 * Expands date patterns such as "parapet-{yyyy.MM}" or "{yyyy.MM.dd}" from the event's own UTC time, so a
 * batch re-sent after an outage lands in the same index as the first attempt (and create + _id dedupes).
 * Supported tokens: yyyy, yy, MM, dd, HH; other characters inside braces are copied.
 */
export function expandIndexName(pattern: string, timestamp: string): string {
  const t = new Date(timestamp);
  const d = Number.isNaN(t.getTime()) ? new Date(0) : t;
  const pad = (n: number) => String(n).padStart(2, '0');
  return pattern
    .replace(TOKEN, (_m, inner: string) =>
      inner
        .replace(/yyyy/g, String(d.getUTCFullYear()))
        .replace(/yy/g, String(d.getUTCFullYear()).slice(2))
        .replace(/MM/g, pad(d.getUTCMonth() + 1))
        .replace(/dd/g, pad(d.getUTCDate()))
        .replace(/HH/g, pad(d.getUTCHours())),
    )
    .toLowerCase();
}

/** The wildcard form of an index pattern, for the index template ("parapet-{yyyy.MM}" → "parapet-*"). */
export function indexWildcard(pattern: string): string {
  const base = pattern.replace(TOKEN, '*').toLowerCase();
  return base.includes('*') ? base.replace(/\*+/g, '*') : `${base}*`;
}

/** The spec's ECS index template mapping, installed once per destination before the first bulk. */
export function ecsIndexTemplate(indexPattern: string): Record<string, unknown> {
  return {
    index_patterns: [indexWildcard(indexPattern)],
    priority: 200,
    template: {
      mappings: {
        dynamic: true,
        properties: {
          '@timestamp': { type: 'date' },
          event: {
            properties: {
              id: { type: 'keyword' },
              category: { type: 'keyword' },
              severity: { type: 'integer' },
              action: { type: 'keyword' },
            },
          },
          threat: { properties: { indicator: { properties: { type: { type: 'keyword' } } } } },
          user: { properties: { id: { type: 'keyword' } } },
          organization: { properties: { id: { type: 'keyword' } } },
          source: { properties: { ip: { type: 'ip' } } },
          service: {
            properties: {
              risk_score: { type: 'integer' },
              patterns: {
                type: 'nested',
                properties: { type: { type: 'keyword' }, match: { type: 'text' }, score: { type: 'float' } },
              },
            },
          },
          // Free-form event data is kept for reading, not indexed, so its shape can never cause mapping conflicts.
          parapet: { properties: { type: { type: 'keyword' }, data: { type: 'object', enabled: false } } },
        },
      },
    },
  };
}

/**
 * NDJSON for `_bulk`: a `create` action with `_id` = event id per document (a re-send answers 409, which
 * counts as delivered) and the mandatory trailing newline.
 */
export function bulkBody(
  events: readonly SiemEvent[],
  indexPattern: string,
  toDoc: (ev: SiemEvent) => Record<string, unknown> = ecsDocument,
): string {
  let out = '';
  for (const ev of events) {
    out += `${JSON.stringify({ create: { _index: expandIndexName(indexPattern, ev.timestamp), _id: ev.id } })}\n`;
    out += `${JSON.stringify(toDoc(ev))}\n`;
  }
  return out;
}

export interface BulkItemOutcome {
  id: string;
  status: number;
  ok: boolean;
  retryable: boolean;
  error?: string;
}

/**
 * Reads a `_bulk` answer item by item: 200/201 and 409 (already stored) are delivered, 429 and 5xx may be
 * retried, any other status is permanent. Returns null when the body is not a bulk answer.
 */
export function parseBulkResponse(body: string, ids: readonly string[]): BulkItemOutcome[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const items = (parsed as { items?: unknown }).items;
  if (!Array.isArray(items)) return null;
  return ids.map((id, i) => {
    const item = items[i] as Record<string, { status?: number; _id?: string; error?: unknown }> | undefined;
    const result = item === undefined ? undefined : Object.values(item)[0];
    const status = typeof result?.status === 'number' ? result.status : 0;
    const ok = (status >= 200 && status < 300) || status === 409;
    const retryable = !ok && (status === 0 || status === 429 || status >= 500);
    const out: BulkItemOutcome = { id, status, ok, retryable };
    if (!ok) {
      const e = result?.error as { type?: string; reason?: string } | string | undefined;
      out.error = typeof e === 'string' ? e : `${e?.type ?? 'error'}: ${e?.reason ?? `status ${status}`}`;
    }
    return out;
  });
}
