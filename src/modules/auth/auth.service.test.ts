import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Organization } from '../orgs/index.js';
import { apiKeyFromHeaders, createAuthService } from './auth.service.js';

const auth = createAuthService({ keys: {} as never, orgs: {} as never, clock: systemClock });
const org = (
  plan: Organization['plan'],
  products: Organization['products'] = ['detection'],
): Organization => ({
  id: 'org_1',
  name: 'x',
  plan,
  products,
  settings: {},
  renewalDay: 1,
  createdAt: '',
});

function code(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as AppError).code;
  }
}

describe('access checks', () => {
  it('plan_required for a feature above the plan, entitlement_missing for a disabled product', () => {
    assert.equal(
      code(() => auth.checkAccess({ org: org('pro'), via: 'apiKey' }, { feature: 'endpoint' })),
      'plan_required',
    );
    assert.equal(
      code(() => auth.checkAccess({ org: org('business'), via: 'apiKey' }, { feature: 'endpoint' })),
      undefined,
    );
    assert.equal(
      code(() => auth.checkAccess({ org: org('free'), via: 'apiKey' }, { feature: 'shadow_ai' })),
      'plan_required',
    );
    assert.equal(
      code(() => auth.checkAccess({ org: org('enterprise'), via: 'apiKey' }, { product: 'chat' })),
      'entitlement_missing',
    );
  });

  it('forbidden for a role that may not', () => {
    const user = {
      id: 'u',
      orgId: 'org_1',
      email: 'a@b',
      name: 'a',
      role: 'viewer' as const,
      mustChangePassword: false,
      createdAt: '',
    };
    assert.equal(
      code(() => auth.checkAccess({ org: org('pro'), via: 'session', user }, { roles: ['owner', 'admin'] })),
      'forbidden',
    );
    assert.ok(new AppError('forbidden', 'x').statusCode === 403);
  });

  it('reads keys from Bearer, X-API-Key or X-Service-Key', () => {
    assert.equal(apiKeyFromHeaders({ authorization: 'Bearer abc' }, 'apiKey'), 'abc');
    assert.equal(apiKeyFromHeaders({ authorization: 'bearer   abc ' }, 'apiKey'), 'abc');
    assert.equal(apiKeyFromHeaders({ 'x-api-key': 'def' }, 'apiKey'), 'def');
    assert.equal(apiKeyFromHeaders({ authorization: 'Basic abc' }, 'apiKey'), undefined);
    assert.equal(
      apiKeyFromHeaders({ authorization: 'Bearer sk-provider', 'x-service-key': 'k' }, 'serviceKey'),
      'k',
    );
  });
});
