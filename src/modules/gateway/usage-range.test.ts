import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../platform/errors/index.js';
import { usageRange } from './usage-range.js';

const NOW = new Date('2026-12-31T23:30:00.000Z');
const iso = (r: { from: Date; to: Date }) => [r.from.toISOString(), r.to.toISOString()];
const refuses = (query: { from?: string; to?: string }, message: RegExp = /./) =>
  assert.throws(
    () => usageRange(query, NOW),
    (e: unknown) => e instanceof AppError && e.code === 'invalid_request' && message.test(e.message),
  );

describe('usageRange', () => {
  it('defaults to the current calendar month in UTC, across a year end', () => {
    assert.deepEqual(iso(usageRange({}, NOW)), ['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it('reads dates as midnight UTC and date-times in their own zone', () => {
    assert.deepEqual(iso(usageRange({ from: '2026-03-01', to: '2026-03-02T01:00:00+02:00' }, NOW)), [
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T23:00:00.000Z',
    ]);
    assert.deepEqual(iso(usageRange({ from: '2026-03-01T00:00Z', to: '2026-03-01T00:00:00.5Z' }, NOW)), [
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.500Z',
    ]);
  });

  it('allows an empty period and exactly 366 days, not more', () => {
    assert.doesNotThrow(() => usageRange({ from: '2026-05-01', to: '2026-05-01' }, NOW));
    assert.doesNotThrow(() => usageRange({ from: '2024-01-01', to: '2025-01-01' }, NOW));
    refuses({ from: '2024-01-01', to: '2025-01-01T00:00:00.001Z' });
  });

  it('refuses malformed and impossible instants, zone-less times, and a reversed period', () => {
    for (const v of ['', 'now', '2026-1-01', '2026-02-29', '2026-04-31', '2026-13-01', '2026-06-01T10:00']) {
      refuses({ from: v }, /'from' must be an ISO 8601 date/);
    }
    for (const v of [
      '2026-06-01T24:00:00Z',
      '2026-06-01T10:60Z',
      '2026-06-01T10:00:00+25:00',
      '+02026-06-01',
    ]) {
      // An explicit, earlier `from`: only the malformed `to` can be the reason.
      refuses({ from: '2026-01-01', to: v }, /'to' must be an ISO 8601 date/);
    }
    refuses({ from: '2026-06-02', to: '2026-06-01' }, /must not be later/);
  });

  it('defaults the missing bound from the given one, and says so when the period is refused', () => {
    // Only `to`: the month that ends there.
    assert.deepEqual(iso(usageRange({ to: '2026-10-15' }, NOW)), [
      '2026-10-01T00:00:00.000Z',
      '2026-10-15T00:00:00.000Z',
    ]);
    assert.deepEqual(iso(usageRange({ to: '2026-10-01' }, NOW)), [
      '2026-09-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
    ]);
    // Only `from`: up to the end of the current month.
    assert.deepEqual(iso(usageRange({ from: '2026-03-01' }, NOW)), [
      '2026-03-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    refuses({ from: '2025-01-01' }, /'to' \(2027-01-01T00:00:00.000Z, by default\) must not be longer/);
    refuses(
      { from: '2027-02-01' },
      /'from' \(2027-02-01T00:00:00.000Z\) must not be later than 'to' \(2027-01-01T00:00:00.000Z, by default\)/,
    );
  });
});
