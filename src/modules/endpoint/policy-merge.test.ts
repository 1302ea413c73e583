import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type StoredPolicy, appliesTo, mergePolicies } from './policy-merge.js';

const p = (id: string, scope: StoredPolicy['scope'], extra: Partial<StoredPolicy> = {}): StoredPolicy => ({
  id,
  name: id,
  scope,
  rules: {},
  enforcement: 'block',
  enabled: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const subject = { orgId: 'org_1', userId: 'usr_1', userEmail: 'ann@example.test', groupIds: ['grp_1'] };

describe('policy precedence', () => {
  it('which policies apply', () => {
    assert.equal(appliesTo(p('o', { type: 'organization', targets: [] }), subject), true);
    assert.equal(appliesTo(p('o2', { type: 'organization', targets: ['org_2'] }), subject), false);
    assert.equal(appliesTo(p('g', { type: 'group', targets: ['grp_2'] }), subject), false);
    assert.equal(appliesTo(p('u', { type: 'user', targets: ['ann@example.test'] }), subject), true);
    assert.equal(
      appliesTo(p('off', { type: 'organization', targets: [] }, { enabled: false }), subject),
      false,
    );
  });

  it('broad to narrow, then older to newer; the default enforcement when nothing applies', () => {
    const merged = mergePolicies(
      [
        p(
          'user',
          { type: 'user', targets: ['usr_1'] },
          { enforcement: 'log', rules: { logging: { retentionDays: 5 } } },
        ),
        p(
          'org-new',
          { type: 'organization', targets: [] },
          { enforcement: 'warn', updatedAt: '2026-02-01T00:00:00.000Z' },
        ),
        p(
          'org-old',
          { type: 'organization', targets: [] },
          { rules: { logging: { retentionDays: 9, logAllInteractions: true } } },
        ),
        p('group', { type: 'group', targets: ['grp_1'] }, { enforcement: 'block' }),
      ],
      subject,
      'warn',
    );
    assert.deepEqual(
      merged.applied.map((x) => x.id),
      ['org-old', 'org-new', 'group', 'user'],
    );
    assert.equal(merged.enforcement, 'log');
    assert.deepEqual(merged.rules.logging, { retentionDays: 5, logAllInteractions: true });
    assert.equal(mergePolicies([], subject, 'warn').enforcement, 'warn');
  });
});
