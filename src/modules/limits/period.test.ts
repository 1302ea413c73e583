import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quotaPeriod } from './period.js';

describe('quota period', () => {
  it('starts on the renewal day and is labelled by its starting month', () => {
    const p = quotaPeriod(new Date('2026-03-10T00:00:00Z'), 15);
    assert.equal(p.label, '2026-02');
    assert.equal(p.start.toISOString(), '2026-02-15T00:00:00.000Z');
    assert.equal(p.end.toISOString(), '2026-03-15T00:00:00.000Z');
    assert.equal(quotaPeriod(new Date('2026-03-15T00:00:00Z'), 15).label, '2026-03');
  });

  it('wraps the year', () => {
    assert.equal(quotaPeriod(new Date('2026-01-02T00:00:00Z'), 5).label, '2025-12');
    assert.equal(
      quotaPeriod(new Date('2026-12-20T00:00:00Z'), 5).end.toISOString(),
      '2027-01-05T00:00:00.000Z',
    );
  });
});
