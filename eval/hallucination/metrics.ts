export type Label = 'supported' | 'contradicted' | 'unsupported' | 'partially_supported';

export interface Scored {
  gold: Label;
  pred: Label;
}

/** Three-way bucket: partially supported counts as "not enough support" together with unsupported. */
export const threeWay = (l: Label): string => (l === 'partially_supported' ? 'unsupported' : l);

/** Balanced accuracy of "supported" vs everything else; NaN when one class is absent. */
export function balancedAccuracy(rows: Scored[]): number {
  const pos = rows.filter((r) => r.gold === 'supported');
  const neg = rows.filter((r) => r.gold !== 'supported');
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  const tpr = pos.filter((r) => r.pred === 'supported').length / pos.length;
  const tnr = neg.filter((r) => r.pred !== 'supported').length / neg.length;
  return (tpr + tnr) / 2;
}

/** Share of rows whose supported/not decision is right (the only meaningful binary figure within one kind). */
export function binaryAccuracy(rows: Scored[]): number {
  if (rows.length === 0) return Number.NaN;
  return rows.filter((r) => (r.gold === 'supported') === (r.pred === 'supported')).length / rows.length;
}

export function threeWayAccuracy(rows: Scored[]): number {
  if (rows.length === 0) return Number.NaN;
  return rows.filter((r) => threeWay(r.gold) === threeWay(r.pred)).length / rows.length;
}

export function exactAccuracy(rows: Scored[]): number {
  if (rows.length === 0) return Number.NaN;
  return rows.filter((r) => r.gold === r.pred).length / rows.length;
}

export const pct = (x: number): string => (Number.isNaN(x) ? '  n/a' : x.toFixed(3));

export function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k) ?? [];
    list.push(r);
    m.set(k, list);
  }
  return new Map([...m].sort(([a], [b]) => a.localeCompare(b)));
}
