import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readIsoInstant } from './index.js';

describe('readIsoInstant', () => {
  it('reads a date as midnight UTC and a date-time by its own offset, whatever the server time zone', () => {
    for (const [value, iso] of [
      ['2027-01-01', '2027-01-01T00:00:00.000Z'],
      ['2027-01-01T10:00Z', '2027-01-01T10:00:00.000Z'],
      ['2027-01-01T10:00:00.5z', '2027-01-01T10:00:00.500Z'],
      ['2027-01-01T10:00:00+01:00', '2027-01-01T09:00:00.000Z'],
      ['2027-01-01T10:00:00-0530', '2027-01-01T15:30:00.000Z'],
    ] as const) {
      const read = readIsoInstant(value, 'from');
      assert.ok('at' in read, `${value}: ${JSON.stringify(read)}`);
      assert.equal(read.at.toISOString(), iso, value);
    }
  });

  it('refuses a date-time without an offset (Date would read it in local time), naming the field', () => {
    for (const value of ['2027-01-01T10:00', '2027-01-01T10:00:00.000', '2027-01-01 10:00']) {
      assert.deepEqual(readIsoInstant(value, 'to'), {
        problem: 'to is a date-time without a time zone: end it with Z (UTC) or an offset such as +01:00.',
      });
    }
  });
});
