/** Time comes from here so that quotas, expiry and retry schedules are testable without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
}

/**
 * An ISO 8601 date or date-time read as an instant, or why it is none, naming `field`. Date alone rolls an
 * impossible day over into the next month (2026-02-30 is read as March 2), so a report or an expiry would
 * silently fall on another day than the one asked for. A date alone is midnight UTC; a date-time must say
 * its offset (`Z` or `+01:00`): without one, Date reads it in the server's own time zone, so the same
 * request would mean another instant on another server.
 */
export function readIsoInstant(value: string, field: string): { at: Date } | { problem: string } {
  const d = new Date(value);
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!ymd || Number.isNaN(d.getTime()))
    return { problem: `${field} must be an ISO 8601 date or date-time.` };
  if (value.length > ymd[0].length && !/(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(value)) {
    return {
      problem: `${field} is a date-time without a time zone: end it with Z (UTC) or an offset such as +01:00.`,
    };
  }
  const [year, month, day] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) {
    return { problem: `${field} names a day that does not exist (${ymd[0]}).` };
  }
  return { at: d };
}
