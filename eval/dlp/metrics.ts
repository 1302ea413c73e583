import { writeChart } from '../../scripts/svg-chart.js';
export interface Span {
  type: string;
  start: number;
  end: number;
}

export class Counts {
  tp = 0;
  fp = 0;
  fn = 0;
  get precision(): number {
    return this.tp + this.fp === 0 ? 1 : this.tp / (this.tp + this.fp);
  }
  get recall(): number {
    return this.tp + this.fn === 0 ? 1 : this.tp / (this.tp + this.fn);
  }
  get f1(): number {
    const p = this.precision;
    const r = this.recall;
    return p + r === 0 ? 0 : (2 * p * r) / (p + r);
  }
}

export class Table {
  readonly rows = new Map<string, Counts>();
  get(key: string): Counts {
    let c = this.rows.get(key);
    if (!c) {
      c = new Counts();
      this.rows.set(key, c);
    }
    return c;
  }
}

/** Exact match: same type, same offsets. `overlap` relaxes offsets to any overlap (for noisy gold data). */
export function score(
  gold: Span[],
  predicted: Span[],
  onPair: (type: string, kind: 'tp' | 'fp' | 'fn') => void,
  overlap = false,
): void {
  const used = new Set<number>();
  for (const p of predicted) {
    const i = gold.findIndex(
      (g, k) =>
        !used.has(k) &&
        g.type === p.type &&
        (overlap ? p.start < g.end && g.start < p.end : g.start === p.start && g.end === p.end),
    );
    if (i >= 0) {
      used.add(i);
      onPair(p.type, 'tp');
    } else onPair(p.type, 'fp');
  }
  gold.forEach((g, k) => {
    if (!used.has(k)) onPair(g.type, 'fn');
  });
}

export function fmt(n: number): string {
  return n.toFixed(3);
}

export function printTable(title: string, table: Table, minSupport = 0): void {
  chartTable(title, table, minSupport);
  console.log(`\n${title}`);
  console.log('  key                          P      R      F1     tp   fp   fn');
  for (const [key, c] of [...table.rows.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (c.tp + c.fn < minSupport && c.fp === 0) continue;
    console.log(
      `  ${key.padEnd(26)} ${fmt(c.precision)}  ${fmt(c.recall)}  ${fmt(c.f1)}  ${String(c.tp).padStart(4)} ${String(c.fp).padStart(4)} ${String(c.fn).padStart(4)}`,
    );
  }
}

/** FNV-1a of a text: a fixed, seedless way to split rows into parts. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

let scope = '';

/**
 * The part of the evaluation the next tables belong to ("team test", "structured dev"): their charts are
 * named and titled after it, so that two parts printing a table of the same title keep a chart each.
 */
export function chartScope(name: string): void {
  scope = name;
}

/** The table as a chart in docs/images (eval-dlp-<scope>-<title>.svg): precision, recall and F1 per key. */
function chartTable(title: string, table: Table, minSupport: number): void {
  const rows = [...table.rows.entries()]
    .filter(([, c]) => c.tp + c.fn >= minSupport || c.fp > 0)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([key, c]) => ({
      label: `${key} (${c.tp + c.fn})`,
      values: [c.precision, c.recall, c.f1].map((v) => 100 * v),
    }));
  if (rows.length === 0) return;
  writeChart(`eval-dlp-${scope ? `${scope}-` : ''}${title}`, {
    title: `Personal-data detection${scope ? `, ${scope}` : ''}: ${title}`,
    subtitle: `npm run eval:dlp; per type/language (gold spans in brackets); ${new Date().toISOString().slice(0, 10)}`,
    measures: ['precision', 'recall', 'F1'],
    rows,
    unit: '%',
    max: 100,
  });
}
