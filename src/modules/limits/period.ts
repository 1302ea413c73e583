/**
 * The monthly quota period of an organization: it starts on its renewal day (1–28) and is labelled with the
 * year-month of its start, the spec's `period` format YYYY-MM.
 */
export interface QuotaPeriod {
  label: string;
  start: Date;
  end: Date;
}

export function quotaPeriod(now: Date, renewalDay: number): QuotaPeriod {
  const day = Math.min(Math.max(1, renewalDay), 28);
  let y = now.getUTCFullYear();
  let m = now.getUTCMonth();
  if (now.getUTCDate() < day) {
    m -= 1;
    if (m < 0) {
      m = 11;
      y -= 1;
    }
  }
  const start = new Date(Date.UTC(y, m, day));
  const end = new Date(Date.UTC(m === 11 ? y + 1 : y, (m + 1) % 12, day));
  return { label: `${y}-${String(m + 1).padStart(2, '0')}`, start, end };
}
