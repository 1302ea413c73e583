import { isIP } from 'node:net';
import { eventFields, summary } from './event-fields.js';
import { IDMEF_SEVERITY } from './severity.js';
import type { SiemEvent } from './types.js';

export interface IdmefOptions {
  analyzerId: string;
  analyzerName?: string | undefined;
}

interface AdditionalData {
  type: 'string' | 'integer';
  meaning: string;
  data: string | number;
}

function additional(ev: SiemEvent): AdditionalData[] {
  const f = eventFields(ev);
  const out: AdditionalData[] = [
    { type: 'string', meaning: 'event.id', data: ev.id },
    { type: 'string', meaning: 'event.type', data: ev.type },
    { type: 'string', meaning: 'event.category', data: ev.category },
    { type: 'string', meaning: 'event.severity', data: ev.severity },
    { type: 'string', meaning: 'organization.id', data: ev.organizationId },
  ];
  if (f.riskScore !== null)
    out.push({ type: 'integer', meaning: 'risk_score', data: Math.round(f.riskScore) });
  if (f.action !== null) out.push({ type: 'string', meaning: 'action', data: f.action });
  if (f.preview !== null) out.push({ type: 'string', meaning: 'preview', data: f.preview });
  if (f.endpoint !== null) out.push({ type: 'string', meaning: 'endpoint', data: f.endpoint });
  for (const p of f.patterns) out.push({ type: 'string', meaning: 'pattern', data: p.type });
  return out;
}

function completion(ev: SiemEvent): 'failed' | 'succeeded' | undefined {
  const f = eventFields(ev);
  // The attack "failed" when we blocked it; IDMEF describes the attacker's success, not ours.
  if (f.blocked === true || f.action === 'BLOCKED' || f.action === 'REDACTED') return 'failed';
  if (f.blocked === false) return 'succeeded';
  return undefined;
}

/**
 * The alert in libprelude 5's JSON form (lower-case IDMEF path names), accepted by `prelude.IDMEF(json)`
 * in the bridge that hands it to prelude-manager. messageid is our event id.
 */
export function idmefJson(ev: SiemEvent, opts: IdmefOptions): Record<string, unknown> {
  const f = eventFields(ev);
  const impact: Record<string, unknown> = { severity: IDMEF_SEVERITY[ev.severity], type: 'other' };
  const c = completion(ev);
  if (c !== undefined) impact['completion'] = c;
  if (f.action !== null) impact['description'] = f.action;
  const alert: Record<string, unknown> = {
    messageid: ev.id,
    analyzer: [
      {
        analyzerid: opts.analyzerId,
        name: opts.analyzerName ?? 'Parapet',
        manufacturer: 'Parapet',
        model: 'Parapet',
        class: 'AI firewall',
      },
    ],
    create_time: ev.timestamp,
    detect_time: ev.timestamp,
    classification: {
      text: summary(ev, f),
      reference: [
        { origin: 'vendor-specific', name: f.detail ?? ev.type, meaning: ev.category.toLowerCase() },
      ],
    },
    assessment: {
      impact,
      ...(f.action === 'BLOCKED' ? { action: [{ category: 'block-installed' }] } : {}),
    },
    additional_data: additional(ev),
  };
  const source: Record<string, unknown> = {};
  if (f.sourceIp !== null) {
    source['node'] = {
      address: [{ category: isIP(f.sourceIp) === 6 ? 'ipv6-addr' : 'ipv4-addr', address: f.sourceIp }],
    };
  }
  if (f.userId !== null) source['user'] = { user_id: [{ type: 'original-user', name: f.userId }] };
  if (Object.keys(source).length > 0) alert['source'] = [source];
  return { version: '2.0.0', alert };
}

const xmlEscape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/**
 * RFC 4765 XML (namespace http://iana.org/idmef) for IDMEF-over-HTTPS collectors: one IDMEF-Message holding
 * one Alert per event, which the RFC allows.
 */
export function idmefXml(events: readonly SiemEvent[], opts: IdmefOptions): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<idmef:IDMEF-Message xmlns:idmef="http://iana.org/idmef" version="1.0">',
    ...events.map((ev) => alertXml(ev, opts)),
    '</idmef:IDMEF-Message>',
  ].join('\n');
}

function alertXml(ev: SiemEvent, opts: IdmefOptions): string {
  const f = eventFields(ev);
  const a = xmlEscape;
  const c = completion(ev);
  const lines: string[] = [
    `<idmef:Alert messageid="${a(ev.id)}">`,
    `<idmef:Analyzer analyzerid="${a(opts.analyzerId)}" name="${a(opts.analyzerName ?? 'Parapet')}" manufacturer="Parapet" model="Parapet" class="AI firewall"/>`,
    `<idmef:CreateTime>${a(ev.timestamp)}</idmef:CreateTime>`,
    `<idmef:DetectTime>${a(ev.timestamp)}</idmef:DetectTime>`,
  ];
  if (f.sourceIp !== null || f.userId !== null) {
    lines.push('<idmef:Source>');
    if (f.sourceIp !== null) {
      const cat = isIP(f.sourceIp) === 6 ? 'ipv6-addr' : 'ipv4-addr';
      lines.push(
        `<idmef:Node><idmef:Address category="${cat}"><idmef:address>${a(f.sourceIp)}</idmef:address></idmef:Address></idmef:Node>`,
      );
    }
    if (f.userId !== null) {
      lines.push(
        `<idmef:User><idmef:UserId type="original-user"><idmef:name>${a(f.userId)}</idmef:name></idmef:UserId></idmef:User>`,
      );
    }
    lines.push('</idmef:Source>');
  }
  lines.push(
    `<idmef:Classification text="${a(summary(ev, f))}">`,
    `<idmef:Reference origin="vendor-specific"><idmef:name>${a(f.detail ?? ev.type)}</idmef:name><idmef:url>urn:parapet:${a(ev.type)}</idmef:url></idmef:Reference>`,
    '</idmef:Classification>',
    '<idmef:Assessment>',
    `<idmef:Impact severity="${IDMEF_SEVERITY[ev.severity]}"${c ? ` completion="${c}"` : ''} type="other">${a(f.action ?? '')}</idmef:Impact>`,
  );
  if (f.action === 'BLOCKED') lines.push('<idmef:Action category="block-installed"/>');
  lines.push('</idmef:Assessment>');
  for (const d of additional(ev)) {
    lines.push(
      `<idmef:AdditionalData type="${d.type}" meaning="${a(d.meaning)}"><idmef:${d.type}>${a(String(d.data))}</idmef:${d.type}></idmef:AdditionalData>`,
    );
  }
  lines.push('</idmef:Alert>');
  return lines.join('\n');
}
