import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEvent, detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import {
  bulkBody,
  ecsDocument,
  ecsIndexTemplate,
  expandIndexName,
  indexWildcard,
  parseBulkResponse,
} from './ecs.js';

// Allowed values from the ECS reference for the categorisation fields we emit.
const KINDS = new Set([
  'alert',
  'asset',
  'enrichment',
  'event',
  'metric',
  'state',
  'pipeline_error',
  'signal',
]);
const TYPES_BY_CATEGORY: Record<string, string[]> = {
  intrusion_detection: ['allowed', 'denied', 'info'],
  authentication: ['start', 'end', 'info'],
  configuration: ['access', 'change', 'creation', 'deletion', 'info'],
};

describe('ECS documents', () => {
  for (const ev of [
    detectionEvent(1),
    dlpEvent(1),
    auditEvent(1),
    detectionEvent(2, { category: 'AUTHENTICATION', type: 'audit.login' }),
  ]) {
    it(`uses only allowed categorisation values for ${ev.category}`, () => {
      const doc = ecsDocument(ev) as {
        event: { kind: string; category: string[]; type: string[]; outcome: string };
      };
      assert.ok(KINDS.has(doc.event.kind));
      for (const c of doc.event.category) {
        for (const t of doc.event.type) assert.ok(TYPES_BY_CATEGORY[c]?.includes(t), `${c}/${t}`);
      }
      assert.ok(['success', 'failure', 'unknown'].includes(doc.event.outcome));
    });
  }

  it('follows the spec template fields and drops an invalid source.ip', () => {
    const d = ecsDocument(detectionEvent(1)) as Record<string, Record<string, unknown>>;
    assert.equal(d['@timestamp'] as unknown, '2026-11-22T03:00:00.001Z');
    assert.equal(d['event']!['severity'], 73);
    assert.equal(d['organization']!['id'], 'org_test');
    assert.equal(d['source']!['ip'], '198.51.100.7');
    assert.equal(d['service']!['risk_score'], 92);
    assert.deepEqual((d['threat'] as { indicator: unknown }).indicator, { type: 'DAN_JAILBREAK' });
    assert.equal((ecsDocument(dlpEvent(1)) as Record<string, unknown>)['source'], undefined);
  });

  it('maps the spec template types', () => {
    const t = ecsIndexTemplate('parapet-{yyyy.MM}') as {
      index_patterns: string[];
      template: {
        mappings: {
          properties: Record<string, { type?: string; properties?: Record<string, { type: string }> }>;
        };
      };
    };
    const p = t.template.mappings.properties;
    assert.deepEqual(t.index_patterns, ['parapet-*']);
    assert.equal(p['@timestamp']?.type, 'date');
    assert.equal(p['source']?.properties?.['ip']?.type, 'ip');
    assert.equal(p['service']?.properties?.['risk_score']?.type, 'integer');
    assert.equal(p['service']?.properties?.['patterns']?.type, 'nested');
    assert.equal(p['event']?.properties?.['severity']?.type, 'integer');
  });
});

describe('index names', () => {
  it('expands date patterns from the event time in UTC', () => {
    assert.equal(expandIndexName('parapet-{yyyy.MM}', '2026-12-31T23:59:59.000Z'), 'parapet-2026.12');
    assert.equal(expandIndexName('Logs-{yyyy.MM.dd}', '2027-01-01T00:30:00+01:00'), 'logs-2026.12.31');
    assert.equal(expandIndexName('plain', '2026-01-01T00:00:00Z'), 'plain');
    assert.equal(indexWildcard('plain'), 'plain*');
  });
});

describe('_bulk', () => {
  it('pairs create actions with _id and ends with a newline', () => {
    const body = bulkBody([detectionEvent(1), dlpEvent(2)], 'p-{yyyy.MM}');
    assert.ok(body.endsWith('\n'));
    const lines = body.slice(0, -1).split('\n');
    assert.equal(lines.length, 4);
    assert.deepEqual(JSON.parse(lines[0]!), { create: { _index: 'p-2026.11', _id: 'evt_det_1' } });
    assert.deepEqual(JSON.parse(lines[2]!), { create: { _index: 'p-2026.12', _id: 'evt_dlp_2' } });
  });

  it('counts 409 as delivered and separates retryable items', () => {
    const res = JSON.stringify({
      errors: true,
      items: [
        { create: { status: 201 } },
        { create: { status: 409, error: { type: 'version_conflict_engine_exception', reason: 'exists' } } },
        { create: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'busy' } } },
        { create: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad' } } },
      ],
    });
    const out = parseBulkResponse(res, ['a', 'b', 'c', 'd'])!;
    assert.deepEqual(
      out.map((o) => [o.id, o.ok, o.retryable]),
      [
        ['a', true, false],
        ['b', true, false],
        ['c', false, true],
        ['d', false, false],
      ],
    );
    assert.equal(parseBulkResponse('nope', ['a']), null);
  });
});
