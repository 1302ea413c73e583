import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SIEM_CATEGORIES, SIEM_SEVERITIES, type SiemEvent } from '../formats/types.js';
import { effectiveEventTypes, shouldForward } from './filter.js';

const RANK = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 } as const;

const eventArb = fc.record({
  id: fc.string(),
  category: fc.constantFrom(...SIEM_CATEGORIES),
  type: fc.constantFrom('detection.created', 'dlp.blocked', 'audit.login', 'user.joined'),
  severity: fc.constantFrom(...SIEM_SEVERITIES),
  timestamp: fc.constant('2026-11-22T03:00:00Z'),
  organizationId: fc.constant('org'),
  data: fc.constant({}),
}) as fc.Arbitrary<SiemEvent>;

describe('shouldForward', () => {
  it('forwards exactly the events whose category is listed and whose severity reaches the minimum', () => {
    fc.assert(
      fc.property(
        eventArb,
        fc.subarray([...SIEM_CATEGORIES]),
        fc.constantFrom(...SIEM_SEVERITIES),
        (ev, eventTypes, minSeverity) => {
          const expected = eventTypes.includes(ev.category) && RANK[ev.severity] >= RANK[minSeverity];
          return shouldForward({ eventTypes, minSeverity }, ev) === expected;
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('matches exact types and prefixes case-insensitively', () => {
    const ev = {
      id: 'e',
      category: 'DLP',
      type: 'dlp.blocked',
      severity: 'LOW',
      timestamp: '',
      organizationId: 'o',
      data: {},
    } as const;
    assert.equal(shouldForward({ eventTypes: ['dlp.blocked'] }, ev), true);
    assert.equal(shouldForward({ eventTypes: ['DLP.*'] }, ev), true);
    assert.equal(shouldForward({ eventTypes: ['dlp'] }, ev), true);
    assert.equal(shouldForward({ eventTypes: ['dlp.violation'] }, ev), false);
    assert.equal(shouldForward({ eventTypes: [] }, ev), false);
    assert.equal(shouldForward({ eventTypes: ['DLP'], minSeverity: 'MEDIUM' }, ev), false);
    assert.equal(shouldForward({ eventTypes: ['DLP'], minSeverity: 'info' }, ev), true);
  });

  it('without eventTypes: the reseller shapes follow forwardDetections/forwardDlp, the others take every category', () => {
    fc.assert(
      fc.property(
        eventArb,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('PRELUDE', 'WAZUH', 'OPENSEARCH'),
        (ev, fd, fl, platform) => {
          const expected = (ev.category === 'DETECTION' && fd) || (ev.category === 'DLP' && fl);
          const rules = { forwardDetections: fd, forwardDlp: fl };
          return shouldForward({ eventTypes: effectiveEventTypes(platform, rules) }, ev) === expected;
        },
      ),
    );
    for (const platform of ['SPLUNK', 'ELASTIC', 'DATADOG', 'SYSLOG', 'WEBHOOK'])
      assert.deepEqual(effectiveEventTypes(platform, {}), ['DETECTION', 'DLP', 'AUTHENTICATION', 'AUDIT']);
    assert.deepEqual(effectiveEventTypes('SYSLOG', { eventTypes: ['audit.*'] }), ['audit.*']);
  });
});
