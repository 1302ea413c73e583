import { invalid } from '../../platform/errors/index.js';

/** The longest usage report: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

function instant(name: string, value: string): Date {
  const m = DATE.exec(value) ?? DATE_TIME.exec(value);
  const bad = () =>
    invalid(
      `The query parameter '${name}' must be an ISO 8601 date (2026-11-01) or a date-time with a time zone (2026-11-01T00:00:00Z).`,
    );
  if (!m) throw bad();
  const [y, mo, d, h = 0, mi = 0, s = 0, oh = 0, om = 0] = m.slice(1).map((v) => (v ? Number(v) : 0));
  // Date would roll 2026-02-30 over into March; a report over the wrong days is worse than a 400.
  const day = new Date(Date.UTC(y as number, (mo as number) - 1, d));
  if (day.getUTCMonth() !== (mo as number) - 1 || day.getUTCDate() !== d) throw bad();
  if (h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) throw bad();
  const at = new Date(m[0].length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) throw bad();
  return at;
}

/**
 * The period of a usage report: `from` inclusive, `to` exclusive. Neither given: the current calendar month
 * in UTC. Only `from`: from then to the end of the current month. Only `to`: the calendar month (UTC) that
 * ends the period, i.e. from the first of the month holding the last instant before `to`. Bounded so one
 * request cannot aggregate the whole history of a busy organization.
 */
export function usageRange(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const monthOf = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const to = query.to !== undefined ? instant('to', query.to) : nextMonth;
  const from =
    query.from !== undefined
      ? instant('from', query.from)
      : query.to !== undefined
        ? monthOf(new Date(to.getTime() - 1))
        : monthOf(now);
  const shown = (name: 'from' | 'to', at: Date) =>
    `'${name}' (${at.toISOString()}${query[name] === undefined ? ', by default' : ''})`;
  if (from.getTime() > to.getTime()) {
    throw invalid(`The query parameter ${shown('from', from)} must not be later than ${shown('to', to)}.`);
  }
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw invalid(
      `The period from ${shown('from', from)} to ${shown('to', to)} must not be longer than ${MAX_RANGE_DAYS} days.`,
    );
  }
  return { from, to };
}
