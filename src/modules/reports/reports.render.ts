import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import type { AnalysisReport, Count } from './reports.model.js';

/**
 * A CSV cell per RFC 4180. Cells that a spreadsheet would run as a formula are prefixed with a quote:
 * names of users, keys, models and categories come from stored data, and a report is opened in Excel.
 */
function cell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One table of `section,name,value[,extra…]` rows, so every part of the report fits one sheet. */
export function reportCsv(r: AnalysisReport): string {
  const rows: (string | number | null)[][] = [['section', 'name', 'value', 'detail']];
  rows.push(['report', 'organization', r.organization.name, r.organization.id]);
  rows.push(['report', 'from', r.period.from, null], ['report', 'to', r.period.to, null]);
  rows.push(['report', 'generatedAt', r.generatedAt, null]);
  rows.push(
    ['detections', 'total', r.detections.total, null],
    ['detections', 'blocked', r.detections.blocked, null],
  );
  for (const [s, n] of Object.entries(r.detections.bySeverity))
    rows.push(['detections.severity', s, n, null]);
  for (const c of r.detections.byCategory) rows.push(['detections.category', c.name, c.count, null]);
  rows.push(['dlp', 'events', r.dlp.events, null], ['dlp', 'findings', r.dlp.findings, null]);
  rows.push(['dlp', 'blocked', r.dlp.blocked, null]);
  for (const c of r.dlp.byType) rows.push(['dlp.type', c.name, c.count, null]);
  for (const c of r.dlp.bySeverity) rows.push(['dlp.severity', c.name, c.count, null]);
  rows.push(['blocked', 'total', r.blockedRequests.total, null]);
  rows.push(['blocked', 'injection', r.blockedRequests.injection, null]);
  rows.push(['blocked', 'personalData', r.blockedRequests.personalData, null]);
  for (const c of r.top.users) rows.push(['top.user', c.name, c.count, null]);
  for (const c of r.top.apiKeys) rows.push(['top.apiKey', c.name, c.count, null]);
  for (const d of r.daily) {
    rows.push(['daily', d.date, d.detections, `blocked=${d.blocked};dlp=${d.dlpEvents}`]);
  }
  for (const u of r.usage) {
    rows.push([
      `usage.${u.product}`,
      u.period,
      u.requests,
      u.limit === null ? 'unlimited' : `limit=${u.limit}`,
    ]);
  }
  rows.push(['hallucination', 'checks', r.hallucination.checks, r.hallucination.periods.join(' ')]);
  for (const m of r.gateway.models) {
    rows.push([
      'gateway.model',
      `${m.provider}/${m.model}`,
      m.requests,
      `prompt=${m.promptTokens};completion=${m.completionTokens};costUsd=${usd(m.costMicroUsd)}`,
    ]);
  }
  rows.push(['gateway', 'costUsd', usd(r.gateway.costMicroUsd), null]);
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Money is kept in integer micro-dollars and only formatted here. */
export function usd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(Math.round(micros));
  return `${sign}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, '0')}`;
}

// A4 in points; margins of 50 points.
const W = 595.28;
const H = 841.89;
const M = 50;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.4, 0.43, 0.48);
const BAR = rgb(0.16, 0.38, 0.71);
const ALERT = rgb(0.75, 0.22, 0.17);

/** The standard fonts encode WinAnsi only; anything else (names in other scripts) prints as '?'. */
function printable(s: string): string {
  return s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

class Writer {
  page: PDFPage;
  y = H - M;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage([W, H]);
  }
  room(height: number): void {
    if (this.y - height < M) {
      this.page = this.doc.addPage([W, H]);
      this.y = H - M;
    }
  }
  text(
    s: string,
    opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; x?: number } = {},
  ): void {
    const size = opts.size ?? 10;
    this.room(size + 4);
    this.page.drawText(printable(s), {
      x: opts.x ?? M,
      y: this.y - size,
      size,
      font: opts.bold ? this.bold : this.font,
      color: opts.color ?? INK,
    });
    this.y -= size + 5;
  }
  heading(s: string): void {
    this.y -= 8;
    this.room(40);
    this.text(s, { size: 14, bold: true });
  }
  /** Horizontal bars, one per row, scaled to the largest count. */
  bars(rows: Count[], color = BAR): void {
    if (rows.length === 0) {
      this.text('None in this period.', { color: MUTED });
      return;
    }
    const max = Math.max(1, ...rows.map((r) => r.count));
    const labelW = 170;
    const barW = W - 2 * M - labelW - 60;
    for (const r of rows) {
      this.room(16);
      this.page.drawText(printable(r.name).slice(0, 34), {
        x: M,
        y: this.y - 10,
        size: 9,
        font: this.font,
        color: INK,
      });
      const w = Math.max(1, (r.count / max) * barW);
      this.page.drawRectangle({ x: M + labelW, y: this.y - 11, width: w, height: 10, color });
      this.page.drawText(String(r.count), {
        x: M + labelW + w + 4,
        y: this.y - 10,
        size: 9,
        font: this.font,
      });
      this.y -= 15;
    }
  }
  /** Vertical bars over the days of the period, detections with their blocked part in red. */
  daily(days: AnalysisReport['daily']): void {
    if (days.length === 0) {
      this.text('No events in this period.', { color: MUTED });
      return;
    }
    const h = 120;
    this.room(h + 30);
    const top = this.y;
    const max = Math.max(1, ...days.map((d) => d.detections + d.dlpEvents));
    const slot = (W - 2 * M) / days.length;
    const bw = Math.max(1, slot * 0.7);
    days.forEach((d, i) => {
      const x = M + i * slot;
      const all = ((d.detections + d.dlpEvents) / max) * h;
      const blocked = (d.blocked / max) * h;
      this.page.drawRectangle({ x, y: top - h, width: bw, height: Math.max(0.5, all), color: BAR });
      if (blocked > 0) this.page.drawRectangle({ x, y: top - h, width: bw, height: blocked, color: ALERT });
    });
    this.page.drawLine({
      start: { x: M, y: top - h },
      end: { x: W - M, y: top - h },
      thickness: 0.5,
      color: MUTED,
    });
    const first = days[0]?.date ?? '';
    const last = days[days.length - 1]?.date ?? '';
    this.page.drawText(first, { x: M, y: top - h - 12, size: 8, font: this.font, color: MUTED });
    this.page.drawText(last, { x: W - M - 45, y: top - h - 12, size: 8, font: this.font, color: MUTED });
    this.y = top - h - 22;
    this.text('Blue: detections and personal-data events per day; red: blocked.', { size: 8, color: MUTED });
  }
}

/** The report as an A4 PDF with its charts drawn as vector shapes. */
export async function reportPdf(r: AnalysisReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Parapet analysis report ${r.period.from.slice(0, 10)} to ${r.period.to.slice(0, 10)}`);
  doc.setProducer('Parapet');
  doc.setCreationDate(new Date(r.generatedAt));
  doc.setModificationDate(new Date(r.generatedAt));
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  w.text('Parapet analysis report', { size: 20, bold: true });
  w.text(`${r.organization.name} (${r.organization.id}, plan ${r.organization.plan})`, { color: MUTED });
  w.text(`Period ${r.period.from} to ${r.period.to}; generated ${r.generatedAt}`, { color: MUTED });

  w.heading('Summary');
  w.text(`Injection detections: ${r.detections.total} (blocked ${r.detections.blocked})`);
  w.text(`Personal-data events: ${r.dlp.events}, findings ${r.dlp.findings} (blocked ${r.dlp.blocked})`);
  w.text(`Blocked requests: ${r.blockedRequests.total}`);
  w.text(
    `Hallucination checks (quota periods ${r.hallucination.periods.join(', ')}): ${r.hallucination.checks}`,
  );
  w.text(`Gateway requests: ${r.gateway.requests}, cost USD ${usd(r.gateway.costMicroUsd)}`);

  w.heading('Activity per day');
  w.daily(r.daily);
  w.heading('Detections by severity');
  w.bars(
    Object.entries(r.detections.bySeverity).map(([name, count]) => ({ name, count })),
    ALERT,
  );
  w.heading('Detections by category');
  w.bars(r.detections.byCategory);
  w.heading('Personal data by type');
  w.bars(r.dlp.byType);
  w.heading('Top users');
  w.bars(r.top.users);
  w.heading('Top API keys');
  w.bars(r.top.apiKeys);
  w.heading('Usage against quota');
  if (r.usage.length === 0) w.text('No usage recorded.', { color: MUTED });
  for (const u of r.usage) {
    w.text(
      `${u.period} ${u.product}: ${u.requests} requests` +
        (u.limit === null ? ' (unlimited plan)' : ` of ${u.limit} (${u.percent} %)`),
    );
  }
  w.heading('Models');
  if (r.gateway.models.length === 0) w.text('No gateway traffic.', { color: MUTED });
  for (const m of r.gateway.models) {
    w.text(
      `${m.provider}/${m.model}: ${m.requests} requests, ${m.promptTokens}+${m.completionTokens} tokens, USD ${usd(m.costMicroUsd)}`,
    );
  }
  return doc.save({ useObjectStreams: false });
}
