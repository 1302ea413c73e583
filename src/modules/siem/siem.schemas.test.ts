import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { SiemIntegrationCreateSchema } from './siem.schemas.js';
import { eventTypesProblem } from './siem-event-types.js';
import { createOutbound } from '../../platform/net/index.js';
import { createSink } from './sinks/create-sink.js';
import { toSinkIntegration } from './sinks/normalize.js';

const common = { name: 'x', enabled: true, eventTypes: ['DETECTION', 'DLP'], minSeverity: 'MEDIUM' };
const valid: Record<string, object> = {
  splunk: {
    ...common,
    platform: 'SPLUNK',
    config: { hecUrl: 'https://splunk:8088', hecToken: 't', index: 'main', source: 's', sourcetype: 'st' },
  },
  elasticCloud: {
    ...common,
    platform: 'ELASTIC',
    config: {
      cloudId: `d:${Buffer.from('h.io$es$kb').toString('base64')}`,
      apiKey: 'k',
      index: 'i',
      pipeline: 'p',
    },
  },
  elasticDirect: {
    ...common,
    platform: 'ELASTIC',
    config: { url: 'https://es:9200', username: 'u', password: 'p', index: 'parapet-{yyyy.MM}' },
  },
  datadog: {
    ...common,
    platform: 'DATADOG',
    config: { apiKey: 'k', site: 'datadoghq.eu', service: 'svc', env: 'prod', tags: ['a:b'] },
  },
  syslogTls: {
    ...common,
    platform: 'SYSLOG',
    config: {
      host: 'siem.example',
      port: 6514,
      protocol: 'TLS',
      facility: 'LOCAL0',
      format: 'CEF',
      appName: 'parapet',
      tlsCert: 'c',
      tlsKey: 'k',
    },
  },
  syslogUdp: {
    ...common,
    platform: 'SYSLOG',
    config: { host: '10.0.0.5', port: 514, protocol: 'UDP', format: 'RFC3164' },
  },
  webhook: {
    ...common,
    platform: 'WEBHOOK',
    config: { url: 'https://collector.example/in', secret: 'a-long-enough-secret' },
  },
  prelude: {
    name: 'p',
    type: 'PRELUDE',
    endpoint: 'https://prelude.example/idmef',
    credentials: { apiKey: 'k', agentId: 'a', analyzerId: 'z' },
    forwardDetections: true,
    forwardDlp: false,
    minSeverity: 'LOW',
  },
  wazuh: {
    name: 'w',
    type: 'WAZUH',
    endpoint: 'https://wazuh:9200',
    credentials: { username: 'u', password: 'p', agentId: '001', index: 'i' },
  },
  opensearch: {
    name: 'o',
    type: 'OPENSEARCH',
    endpoint: 'https://os:9200',
    credentials: { username: 'u', password: 'p', index: 'i' },
  },
};

describe('SiemIntegrationCreateSchema', () => {
  for (const [name, body] of Object.entries(valid)) {
    it(`accepts the ${name} shape and builds its sink`, async () => {
      assert.equal(
        Value.Check(SiemIntegrationCreateSchema, body),
        true,
        JSON.stringify([...Value.Errors(SiemIntegrationCreateSchema, body)][0]),
      );
      const outbound = createOutbound({ allowPrivate: false, timeoutMs: 1000 });
      const { integration } = toSinkIntegration(body);
      const sink = createSink(integration, { outbound, allowPrivate: false });
      assert.equal(sink.platform, integration.platform);
      await sink.close();
      await outbound.close();
    });
  }

  // Schemes and destinations of URLs are the outbound policy's (siem-targets.test.ts), not the schema's.
  it('rejects wrong enums, missing secrets and empty lists', () => {
    const bad = [
      { ...common, platform: 'SYSLOG', config: { host: 'h', port: 514, protocol: 'SCTP' } },
      { ...common, platform: 'SYSLOG', config: { host: 'h', port: 70000, protocol: 'TCP' } },
      { ...common, platform: 'SPLUNK', config: { hecUrl: 'https://s' } },
      { ...common, platform: 'SPLUNK', config: { hecUrl: '', hecToken: 't' } },
      { ...common, eventTypes: [], platform: 'DATADOG', config: { apiKey: 'k' } },
      { ...common, minSeverity: 'SEVERE', platform: 'DATADOG', config: { apiKey: 'k' } },
      { ...common, eventTypes: [''], platform: 'DATADOG', config: { apiKey: 'k' } },
      { name: 'w', type: 'WAZUH', endpoint: 'https://w', credentials: { username: 'u' } },
      { name: 'n', platform: 'QRADAR', config: {} },
    ];
    for (const b of bad) assert.equal(Value.Check(SiemIntegrationCreateSchema, b), false, JSON.stringify(b));
    // An entry of the right shape that names nothing known is the service's 400, with its name.
    assert.match(eventTypesProblem(['DLP', 'EVERYTHING']) ?? '', /unknown "EVERYTHING"/);
    assert.equal(eventTypesProblem(['dlp', 'Audit.Login', 'shadow_ai.*', 'audit.siem_test']), null);
  });

  it('turns reseller flags into forwarding rules', () => {
    const { rules } = toSinkIntegration(valid['prelude'] as never);
    assert.deepEqual(rules, {
      eventTypes: ['DETECTION'],
      minSeverity: 'LOW',
      forwardDetections: true,
      forwardDlp: false,
    });
  });
});
