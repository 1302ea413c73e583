import assert from 'node:assert/strict';
import { test } from 'node:test';
import { riskScore } from './index.js';

test('one type: its weight, multiplier 1', () => {
  assert.equal(riskScore(['NAME']).score, 5);
  assert.equal(riskScore(['IBAN']).score, 30);
  assert.equal(riskScore([]).score, 0);
});

test('repeats of one type count once', () => {
  const r = riskScore(['EMAIL', 'EMAIL', 'EMAIL']);
  assert.equal(r.score, 10);
  assert.deepEqual(r.breakdown.types, [{ type: 'EMAIL', weight: 10, count: 3 }]);
});

test('two types: sum × 1.5; three or more: sum × 2; capped at 100', () => {
  assert.equal(riskScore(['NAME', 'EMAIL']).score, 23); // (5 + 10) × 1.5 = 22.5, rounded
  assert.equal(riskScore(['NAME', 'EMAIL', 'PHONE']).score, 60); // 30 × 2
  const capped = riskScore(['CVV', 'CARD', 'NAME']);
  assert.equal(capped.score, 100);
  assert.equal(capped.breakdown.uncapped, 160);
  assert.equal(capped.breakdown.multiplier, 2);
});

test('aliases used by policies map to the same weights; unknown types weigh 5', () => {
  assert.equal(riskScore(['CREDIT_CARD']).score, 35);
  assert.equal(riskScore(['credit-card', 'CARD']).breakdown.distinctTypes, 1);
  assert.equal(riskScore(['EMPLOYEE_ID']).score, 5);
});
