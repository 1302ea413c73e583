import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATALOG_CATEGORIES, GDPR_STATUSES } from './shadow-ai.schemas.js';
import { createDomainIndex, loadCatalog, normalizeDomain, riskLevelOf } from './catalog.js';

describe('shipped catalog', () => {
  const catalog = loadCatalog();

  it('has a version, 70+ entries with the spec fields, unique ids and domains', () => {
    assert.match(catalog.version, /^\d{4}\.\d{1,2}\.\d+$/);
    assert.ok(catalog.entries.length >= 70);
    const ids = new Set<string>();
    const domains = new Set<string>();
    for (const e of catalog.entries) {
      assert.ok(!ids.has(e.id), e.id);
      ids.add(e.id);
      assert.ok((CATALOG_CATEGORIES as readonly string[]).includes(e.category), e.category);
      assert.ok((GDPR_STATUSES as readonly string[]).includes(e.gdprStatus), e.gdprStatus);
      assert.match(e.dataResidency, /^([A-Z]{2}|EU|Multi)$/);
      assert.equal(e.status, 'review');
      for (const d of e.domains) {
        assert.equal(d, normalizeDomain(d));
        assert.ok(!domains.has(d), `domain ${d} in two entries`);
        domains.add(d);
      }
    }
  });

  it('derives residency and GDPR status from the vendor jurisdiction', () => {
    const mistral = catalog.entries.find((e) => e.id === 'mistral-le-chat');
    assert.equal(mistral?.dataResidency, 'EU');
    assert.equal(mistral?.gdprStatus, 'eu');
    const deepseek = catalog.entries.find((e) => e.id === 'deepseek');
    assert.equal(deepseek?.dataResidency, 'CN');
    assert.equal(deepseek?.gdprStatus, 'not_adequate');
  });
});

describe('domain index', () => {
  const find = createDomainIndex([
    { id: 'google', domains: ['google.com'] },
    { id: 'gemini', domains: ['gemini.google.com'] },
  ]);

  it('matches subdomains, prefers the longest match, ignores case and www.', () => {
    assert.equal(find('gemini.google.com')?.id, 'gemini');
    assert.equal(find('eu.gemini.google.com')?.id, 'gemini');
    assert.equal(find('WWW.Google.com')?.id, 'google');
    assert.equal(find('mail.google.com')?.id, 'google');
    assert.equal(find('notgoogle.com'), undefined);
    assert.equal(find('com'), undefined);
  });
});

describe('risk level rule', () => {
  it('follows GDPR status, one step lower for media generators', () => {
    const c = (gdprStatus: never, category: never) => riskLevelOf({ kind: 'catalog', gdprStatus, category });
    assert.equal(c('eu' as never, 'LLM Chat' as never), 'low');
    assert.equal(c('adequate' as never, 'Writing' as never), 'low');
    assert.equal(c('conditional' as never, 'LLM Chat' as never), 'medium');
    assert.equal(c('conditional' as never, 'Image Gen' as never), 'low');
    assert.equal(c('not_adequate' as never, 'Code Assistant' as never), 'high');
    assert.equal(c('not_adequate' as never, 'Video Gen' as never), 'medium');
    assert.equal(c('unknown' as never, 'Audio/Voice' as never), 'unknown');
  });

  it('rates heuristic finds by how many distinct signals agree', () => {
    assert.equal(riskLevelOf({ kind: 'heuristic', signals: ['chat_pattern'] }), 'unknown');
    assert.equal(riskLevelOf({ kind: 'heuristic', signals: ['chat_pattern', 'chat_pattern'] }), 'unknown');
    assert.equal(riskLevelOf({ kind: 'heuristic', signals: ['ai_headers', 'streaming_response'] }), 'high');
  });
});
