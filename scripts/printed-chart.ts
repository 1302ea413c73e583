/**
 * Charts drawn from the lines a bench (or an eval) printed. Importing this module records every line the
 * process prints with console.log; at the end, `chartPrinted` turns the lines that match a pattern into the
 * rows of a bar chart (scripts/svg-chart.ts). Why from the printed text rather than from the bench's own
 * variables: the chart then shows exactly the figures of the table beside it (no second copy of them that
 * could drift), and adding a chart to a bench is an import and one call at its end, with no change to the
 * code that measures.
 */
import { loadavg } from 'node:os';
import { format } from 'node:util';
import { type BarChart, type ChartRow, writeChart } from './svg-chart.js';

const printed: string[] = [];
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  for (const line of format(...args).split('\n')) printed.push(line);
  print(...args);
};

export interface PrintedChart extends Omit<BarChart, 'rows' | 'measures'> {
  /**
   * One row per printed line that matches; the named group `label` (trimmed) labels it, and each measure
   * reads its own named group. A measure whose group did not match draws no bar.
   */
  line: RegExp;
  /**
   * Legend and named group of each bar: `[['p50', 'p50'], ['p99', 'p99']]`; `'a|b'` reads the first of the
   * groups that matched (alternatives of one pattern, which cannot share a group name).
   */
  measures: Array<[legend: string, group: string]>;
  /** Run settings printed in the subtitle (`ROUNDS=10`), so a chart from a small run says so. */
  settings?: Record<string, string | number>;
  /** A printed line that opens a section: its first group prefixes the labels of the rows below it. */
  section?: RegExp;
  /** The row's label from the match and the current section, when the `label` group alone is not enough. */
  label?: (groups: Record<string, string>, section: string) => string;
}

/** The rows a chart would draw from the lines printed so far. */
export function printedRows(spec: Pick<PrintedChart, 'line' | 'measures' | 'section' | 'label'>): ChartRow[] {
  const rows: ChartRow[] = [];
  let section = '';
  for (const text of printed) {
    const opened = spec.section?.exec(text);
    if (opened) section = (opened[1] ?? '').trim();
    const m = spec.line.exec(text);
    if (!m?.groups) continue;
    const groups = m.groups as Record<string, string>;
    const own = (groups['label'] ?? '').trim();
    rows.push({
      label: spec.label ? spec.label(groups, section) : section ? `${section}: ${own}` : own,
      values: spec.measures.map(([, names]) => {
        const value = names
          .split('|')
          .map((g) => groups[g])
          .find((v) => v !== undefined);
        return value === undefined ? Number.NaN : Number(value);
      }),
    });
  }
  return rows;
}

/**
 * Writes docs/images/<name>.svg from the matching lines, with the date, the settings and the load average
 * in the subtitle. A pattern that matches nothing (the printed format changed) is reported and fails the
 * run, so a chart never silently goes stale.
 */
export function chartPrinted(name: string, spec: PrintedChart): void {
  const rows = printedRows(spec);
  if (rows.length === 0) {
    console.error(`chart ${name}: no printed line matched ${spec.line}; chart not written`);
    process.exitCode = 1;
    return;
  }
  const settings = Object.entries(spec.settings ?? {}).map(([k, v]) => `${k}=${v}`);
  const subtitle = [
    spec.subtitle,
    ...(settings.length ? [settings.join(' ')] : []),
    `${new Date().toISOString().slice(0, 10)}, load ${loadavg()[0]!.toFixed(2)}`,
  ]
    .filter(Boolean)
    .join('; ');
  const { line: _line, section: _section, label: _label, settings: _settings, measures, ...chart } = spec;
  writeChart(name, { ...chart, subtitle, measures: measures.map(([legend]) => legend), rows });
}
