import { cefMessage, type CefOptions } from './cef.js';
import { eventFields } from './event-fields.js';
import { SYSLOG_SEVERITY } from './severity.js';
import type { SiemEvent } from './types.js';

export const SYSLOG_FACILITIES: Record<string, number> = {
  KERN: 0,
  USER: 1,
  MAIL: 2,
  DAEMON: 3,
  AUTH: 4,
  SYSLOG: 5,
  LPR: 6,
  NEWS: 7,
  UUCP: 8,
  CRON: 9,
  AUTHPRIV: 10,
  FTP: 11,
  NTP: 12,
  SECURITY: 13,
  CONSOLE: 14,
  SOLARIS_CRON: 15,
  LOCAL0: 16,
  LOCAL1: 17,
  LOCAL2: 18,
  LOCAL3: 19,
  LOCAL4: 20,
  LOCAL5: 21,
  LOCAL6: 22,
  LOCAL7: 23,
};

export type SyslogFormat = 'RFC5424' | 'RFC3164' | 'CEF';

export interface SyslogOptions {
  facility: string;
  appName: string;
  hostname: string;
  procId?: string | undefined;
  /** SD-ID of our structured data element, with a private enterprise number (32473 is the documentation PEN). */
  sdId?: string | undefined;
  cef?: CefOptions | undefined;
}

export function facilityCode(name: string): number {
  const code = SYSLOG_FACILITIES[name.toUpperCase().replace(/-/g, '_')];
  if (code === undefined) throw new RangeError(`unknown syslog facility ${name}`);
  return code;
}

export function priority(ev: SiemEvent, facility: string): number {
  return facilityCode(facility) * 8 + SYSLOG_SEVERITY[ev.severity];
}

/** RFC 5424 header fields: printable US-ASCII 33–126 only, bounded length, "-" when empty. */
export function headerField(value: string | undefined, max: number): string {
  const clean = (value ?? '').replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean === '' ? '-' : clean;
}

/** SD-PARAM values escape the three characters RFC 5424 §6.3.3 names: '"', '\' and ']'. */
export function sdEscape(value: string): string {
  return value.replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** SD-NAMEs are 1–32 printable characters excluding '=', SP, ']' and '"'. */
function sdName(name: string): string {
  return name.replace(/[^\x21-\x7e]|[= \]"]/g, '').slice(0, 32) || 'x';
}

function structuredData(ev: SiemEvent, sdId: string): string {
  const f = eventFields(ev);
  const params: [string, string | number | null][] = [
    ['id', ev.id],
    ['type', ev.type],
    ['category', ev.category],
    ['severity', ev.severity],
    ['org', ev.organizationId],
    ['riskScore', f.riskScore],
    ['action', f.action],
    ['detail', f.detail],
    ['userId', f.userId],
    ['sourceIp', f.sourceIp],
  ];
  const body = params
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${sdName(k)}="${sdEscape(String(v))}"`)
    .join(' ');
  return `[${sdName(sdId)} ${body}]`;
}

/** RFC 3339 with at most 6 fractional digits, in UTC. */
function rfc3339(ts: string): string {
  const t = new Date(ts);
  return Number.isNaN(t.getTime()) ? '-' : t.toISOString();
}

const BOM = '\ufeff';

/** The JSON body syslog formats carry as MSG, the same fields for every transport. */
export function eventJson(ev: SiemEvent): string {
  return JSON.stringify({
    id: ev.id,
    type: ev.type,
    category: ev.category,
    severity: ev.severity,
    timestamp: ev.timestamp,
    organizationId: ev.organizationId,
    data: ev.data,
  });
}

/**
 * `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD] BOM MSG`. MSGID is the event type, the SD element
 * repeats the fields SIEM rules filter on, MSG is the event as JSON. A CEF message rides in the same header
 * with MSGID "CEF", no SD and no BOM, since CEF parsers expect the text to start with "CEF:".
 */
export function rfc5424(ev: SiemEvent, opts: SyslogOptions, cef = false): string {
  const head = [
    `<${priority(ev, opts.facility)}>1`,
    rfc3339(ev.timestamp),
    headerField(opts.hostname, 255),
    headerField(opts.appName, 48),
    headerField(opts.procId, 128),
  ];
  if (cef) {
    const c = opts.cef ?? { vendor: 'Parapet', product: 'Parapet', version: '1.0' };
    return `${head.join(' ')} CEF - ${cefMessage(ev, c)}`;
  }
  const sd = structuredData(ev, opts.sdId ?? 'parapet@32473');
  return `${head.join(' ')} ${headerField(ev.type, 32)} ${sd} ${BOM}${eventJson(ev)}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * BSD syslog: `<PRI>Mmm dd hh:mm:ss HOSTNAME TAG[pid]: MSG`, with the day space-padded. RFC 3164 has no year
 * or zone; we write UTC. The TAG is at most 32 alphanumerics. MSG is the event JSON; receivers with the
 * historical 1024-byte limit will cut long events, which is why RFC 5424 is the default.
 */
export function rfc3164(ev: SiemEvent, opts: SyslogOptions): string {
  const t = new Date(ev.timestamp);
  const d = Number.isNaN(t.getTime()) ? new Date(0) : t;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}`;
  const tag = opts.appName.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'parapet';
  const pid = opts.procId ? `[${opts.procId.replace(/[^0-9A-Za-z]/g, '')}]` : '';
  const host = headerField(opts.hostname, 255);
  return `<${priority(ev, opts.facility)}>${stamp} ${host} ${tag}${pid}: ${eventJson(ev)}`;
}

export function formatSyslog(ev: SiemEvent, format: SyslogFormat, opts: SyslogOptions): string {
  if (format === 'RFC3164') return rfc3164(ev, opts);
  return rfc5424(ev, opts, format === 'CEF');
}

/** RFC 6587 §3.4.1 / RFC 5425 octet counting: "<byte length> <message>", safe for embedded newlines. */
export function octetFrame(message: string): string {
  return `${Buffer.byteLength(message, 'utf8')} ${message}`;
}
