import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { shouldForward } from './sinks/index.js';
import { siemCategory, siemSeverity, toSiemEvent } from './siem-event.js';

describe('stored event -> SIEM category and severity', () => {
  it('maps the documented type families', () => {
    const cases: Array<[string, string]> = [
      ['detection.created', 'DETECTION'],
      ['detection.high_severity', 'DETECTION'],
      ['dlp.violation', 'DLP'],
      ['dlp.blocked', 'DLP'],
      ['audit.login', 'AUTHENTICATION'],
      ['audit.login_failed', 'AUTHENTICATION'],
      ['user.joined', 'AUTHENTICATION'],
      ['user.removed', 'AUTHENTICATION'],
      ['api_key.created', 'AUDIT'],
      ['api_key.revoked', 'AUDIT'],
      ['quota.warning', 'AUDIT'],
      ['quota.exceeded', 'AUDIT'],
      ['audit.settings', 'AUDIT'],
      ['audit.force_mode', 'AUDIT'],
      ['something.new', 'AUDIT'],
    ];
    for (const [type, cat] of cases) assert.equal(siemCategory(type), cat, type);
  });

  it("uses the event's own severity, case-insensitively, else a default per type", () => {
    assert.equal(siemSeverity('detection.created', { severity: 'critical' }), 'CRITICAL');
    assert.equal(siemSeverity('dlp.violation', { severity: 'INFO' }), 'LOW');
    assert.equal(siemSeverity('detection.high_severity', {}), 'HIGH');
    assert.equal(siemSeverity('dlp.blocked', { severity: 42 }), 'HIGH');
    assert.equal(siemSeverity('quota.exceeded', {}), 'MEDIUM');
    assert.equal(siemSeverity('api_key.created', {}), 'LOW');
  });

  it('never forwards an event outside the chosen categories or below minSeverity, never skips one inside', () => {
    const types = [
      'detection.created',
      'dlp.blocked',
      'user.joined',
      'api_key.revoked',
      'audit.login_failed',
    ];
    const sev = fc.constantFrom('LOW', 'MEDIUM', 'HIGH', 'CRITICAL');
    const rank = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        sev,
        fc.subarray(['DETECTION', 'DLP', 'AUTHENTICATION', 'AUDIT']),
        sev,
        (type, severity, cats, min) => {
          const ev = toSiemEvent({
            id: 'evt_1',
            type,
            created_at: '2026-11-22T00:00:00.000Z',
            org_id: 'org_1',
            data: { severity },
          });
          const expected = cats.includes(ev.category) && rank[ev.severity] >= rank[min];
          return shouldForward({ eventTypes: cats, minSeverity: min }, ev) === expected;
        },
      ),
    );
  });
});
