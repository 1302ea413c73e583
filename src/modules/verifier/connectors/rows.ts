/** Longest cell value kept in a row passage; longer text is cut (a row is one citation, not a document). */
const MAX_CELL = 2_000;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (Buffer.isBuffer(v)) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ').trim().slice(0, MAX_CELL);
}

/**
 * One row (database, CSV, JSON record) as one sentence: "customers 42: name Anna Muster, city Bern.". One
 * sentence keeps every cell in one retrieval unit, so a claim about two columns of a row finds both.
 */
export function rowSentence(label: string, cells: Array<[string, unknown]>): string {
  const parts = cells
    .map(([k, v]) => [k.replace(/_/g, ' ').trim(), cellText(v)] as const)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k} ${v}`);
  return `${label}: ${parts.join(', ')}.`;
}
