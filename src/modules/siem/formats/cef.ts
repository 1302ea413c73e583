import { eventFields, eventTimeMs, summary } from './event-fields.js';
import { CEF_SEVERITY } from './severity.js';
import type { SiemEvent } from './types.js';

/** Header fields: backslash and pipe are escaped; line breaks are not allowed there and become spaces. */
export function cefHeaderEscape(value: string): string {
  return value.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\r\n|[\r\n]/g, ' ');
}

/** Extension values: backslash and equals are escaped, line breaks become the two-character \n and \r. */
export function cefExtensionEscape(value: string): string {
  return value
    .replace(/[\\=]/g, (c) => `\\${c}`)
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n');
}

export interface CefOptions {
  vendor: string;
  product: string;
  version: string;
}

/**
 * `CEF:0|Vendor|Product|Version|SignatureID|Name|Severity|Extension`. The signature id is the event type,
 * externalId carries our event id for de-duplication, and rt is the event time in epoch ms.
 */
export function cefMessage(ev: SiemEvent, opts: CefOptions): string {
  const f = eventFields(ev);
  const header = [
    'CEF:0',
    cefHeaderEscape(opts.vendor),
    cefHeaderEscape(opts.product),
    cefHeaderEscape(opts.version),
    cefHeaderEscape(ev.type),
    cefHeaderEscape(summary(ev, f)),
    String(CEF_SEVERITY[ev.severity]),
  ].join('|');
  const ext: [string, string | number | null][] = [
    ['rt', eventTimeMs(ev)],
    ['externalId', ev.id],
    ['cat', ev.category],
    ['act', f.action],
    ['src', f.sourceIp],
    ['suser', f.userId],
    ['requestClientApplication', f.userAgent],
    ['request', f.endpoint],
    ['msg', f.preview],
    ['cs1Label', 'organizationId'],
    ['cs1', ev.organizationId],
    ['cs2Label', 'detail'],
    ['cs2', f.detail],
    ['cs3Label', 'patterns'],
    ['cs3', f.patterns.length > 0 ? f.patterns.map((p) => p.type).join(',') : null],
    ['cs4Label', 'severity'],
    ['cs4', ev.severity],
    ['cn1Label', 'riskScore'],
    ['cn1', f.riskScore],
  ];
  const extension = ext
    .filter(([k, v]) => v !== null && !(k.endsWith('Label') && isMissingPair(ext, k)))
    .map(([k, v]) => `${k}=${cefExtensionEscape(String(v))}`)
    .join(' ');
  return `${header}|${extension}`;
}

/** A label is dropped when its value is absent so receivers never see a label without data. */
function isMissingPair(ext: [string, string | number | null][], labelKey: string): boolean {
  const valueKey = labelKey.slice(0, -'Label'.length);
  const pair = ext.find(([k]) => k === valueKey);
  return pair === undefined || pair[1] === null;
}
