/**
 * One small chart for the figures `npm run bench` and `npm run eval` print: horizontal grouped bars (a row
 * per source, language or offered rate; a bar per measure: recall and FP, p50 and p99, …), written as a
 * self-contained SVG into docs/images/ beside the printed table. No dependency: the docs render it as is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChartRow {
  label: string;
  /** One bar per measure, in the order of `measures`; NaN or a missing value draws no bar ("n/a"). */
  values: number[];
}

export interface BarChart {
  title: string;
  /** A second line: what was measured, how, and under which load. */
  subtitle?: string;
  /** Names of the bars of each row (the legend). */
  measures: string[];
  rows: ChartRow[];
  /** Unit printed after each value ('%', ' ms', '/s'). */
  unit?: string;
  /** Right end of the axis; the largest value when omitted. */
  max?: number;
  /** Decimals of the printed values (1 by default). */
  decimals?: number;
  /** A vertical line, e.g. a target. */
  reference?: { value: number; label: string };
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2'];
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const niceMax = (x: number): number => {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= x) ?? 10 * p;
};

/** Lines of at most `max` characters, broken at spaces. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The chart as SVG text; deterministic for the same input (so a committed chart only changes with its figures). */
export function barChartSvg(chart: BarChart): string {
  const unit = chart.unit ?? '';
  const decimals = chart.decimals ?? 1;
  const finite = chart.rows.flatMap((r) => r.values).filter((v) => Number.isFinite(v));
  const max = chart.max ?? niceMax(Math.max(0, ...finite, chart.reference?.value ?? 0));
  const labelWidth = Math.min(280, 12 + 7 * Math.max(8, ...chart.rows.map((r) => r.label.length)));
  const plotWidth = 460;
  const barHeight = 14;
  const rowHeight = chart.measures.length * (barHeight + 2) + 10;
  const width = labelWidth + plotWidth + 90;
  // The subtitle says how the figures were obtained; it wraps rather than runs off the picture.
  const subtitle = chart.subtitle ? wrap(chart.subtitle, Math.floor((width - 24) / 5.6)) : [];
  const top = 46 + 16 * subtitle.length;
  const legendHeight = 22;
  const height = top + chart.rows.length * rowHeight + 30 + legendHeight;
  const x = (v: number) => labelWidth + (Math.max(0, Math.min(v, max)) / max) * plotWidth;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(chart.title)}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="24" ${FONT} font-size="15" font-weight="600" fill="#111827">${escapeXml(chart.title)}</text>`,
  );
  subtitle.forEach((line, i) => {
    out.push(
      `<text x="12" y="${44 + 15 * i}" ${FONT} font-size="11" fill="#4b5563">${escapeXml(line)}</text>`,
    );
  });
  // axis grid: five steps
  const axisY = top + chart.rows.length * rowHeight;
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    const gx = x(v);
    out.push(
      `<line x1="${gx.toFixed(1)}" y1="${top - 4}" x2="${gx.toFixed(1)}" y2="${axisY}" stroke="#e5e7eb"/>`,
      `<text x="${gx.toFixed(1)}" y="${axisY + 14}" ${FONT} font-size="10" fill="#6b7280" text-anchor="middle">${escapeXml(`${Number(v.toFixed(decimals))}${unit}`)}</text>`,
    );
  }
  chart.rows.forEach((row, r) => {
    const y0 = top + r * rowHeight;
    out.push(
      `<text x="${labelWidth - 8}" y="${y0 + (rowHeight - 10) / 2 + 4}" ${FONT} font-size="11" fill="#111827" text-anchor="end">${escapeXml(row.label)}</text>`,
    );
    chart.measures.forEach((_, m) => {
      const v = row.values[m];
      const y = y0 + m * (barHeight + 2);
      const color = COLORS[m % COLORS.length];
      if (v === undefined || !Number.isFinite(v)) {
        out.push(
          `<text x="${labelWidth + 4}" y="${y + barHeight - 3}" ${FONT} font-size="10" fill="#9ca3af">n/a</text>`,
        );
        return;
      }
      const w = Math.max(1, x(v) - labelWidth);
      out.push(
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${color}" rx="2"/>`,
        `<text x="${(labelWidth + w + 4).toFixed(1)}" y="${y + barHeight - 3}" ${FONT} font-size="10" fill="#374151">${escapeXml(`${v.toFixed(decimals)}${unit}`)}${v > max ? ' ›' : ''}</text>`,
      );
    });
  });
  if (chart.reference) {
    const rx = x(chart.reference.value);
    out.push(
      `<line x1="${rx.toFixed(1)}" y1="${top - 8}" x2="${rx.toFixed(1)}" y2="${axisY}" stroke="#111827" stroke-dasharray="4 3"/>`,
      `<text x="${(rx + 4).toFixed(1)}" y="${top - 10}" ${FONT} font-size="10" fill="#111827">${escapeXml(chart.reference.label)}</text>`,
    );
  }
  let lx = 12;
  const ly = axisY + 34;
  chart.measures.forEach((name, m) => {
    out.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${COLORS[m % COLORS.length]}" rx="2"/>`,
      `<text x="${lx + 14}" y="${ly}" ${FONT} font-size="11" fill="#374151">${escapeXml(name)}</text>`,
    );
    lx += 24 + 7 * name.length;
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The folder charts are written to: docs/images (PARAPET_CHART_DIR overrides it, e.g. for a scratch run). */
export function chartDir(): string {
  return process.env['PARAPET_CHART_DIR'] ?? fileURLToPath(new URL('../docs/images/', import.meta.url));
}

/** Writes docs/images/<name>.svg and says so beside the table it draws. */
export function writeChart(name: string, chart: BarChart): string {
  const dir = chartDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.svg`);
  writeFileSync(file, barChartSvg(chart));
  console.log(`  chart: ${file}`);
  return file;
}

/** Rows of a binary classifier (label 1 = positive) grouped by a key: recall, false-positive rate, balanced accuracy. */
export function binaryGroups<T extends { label: number; flagged: boolean }>(
  rows: readonly T[],
  key: (row: T) => string,
): ChartRow[] {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([label, g]) => {
      const pos = g.filter((r) => r.label === 1);
      const neg = g.filter((r) => r.label !== 1);
      const recall = pos.length ? pos.filter((r) => r.flagged).length / pos.length : Number.NaN;
      const fp = neg.length ? neg.filter((r) => r.flagged).length / neg.length : Number.NaN;
      const ba = Number.isNaN(recall) || Number.isNaN(fp) ? Number.NaN : (recall + 1 - fp) / 2;
      return { label: `${label} (${g.length})`, values: [100 * recall, 100 * fp, 100 * ba] };
    });
}
