import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { siemTargetProblem } from './siem-targets.js';
import type { SinkIntegration } from './sinks/index.js';

const splunk = (hecUrl: string): SinkIntegration => ({
  platform: 'SPLUNK',
  config: { hecUrl, hecToken: 't' },
});

describe('siemTargetProblem', () => {
  it('refuses plain http for a HEC token, credentials in URLs and other schemes, naming the field', () => {
    assert.match(
      siemTargetProblem(splunk('http://splunk.example.com:8088'), false) ?? '',
      /'config\.hecUrl' must use https/,
    );
    assert.match(
      siemTargetProblem(splunk('https://u:p@splunk.example.com'), false) ?? '',
      /user name or password/,
    );
    assert.match(
      siemTargetProblem(splunk('file:///etc/passwd'), false) ?? '',
      /'config\.hecUrl' must use https/,
    );
    assert.equal(siemTargetProblem(splunk('https://splunk.example.com:8088'), false), null);
  });

  it('accepts prelude:// only for a Prelude endpoint, and judges its host', () => {
    const prelude = (endpoint: string): SinkIntegration => ({ platform: 'PRELUDE', config: {}, endpoint });
    assert.equal(siemTargetProblem(prelude('prelude://manager.example.com:4690'), false), null);
    assert.match(siemTargetProblem(prelude('prelude://127.0.0.1:4690'), false) ?? '', /'endpoint'/);
    assert.notEqual(
      siemTargetProblem({ platform: 'WAZUH', config: {}, endpoint: 'prelude://manager.example.com' }, false),
      null,
    );
  });

  it('judges derived targets: syslog hosts, Datadog sites, Elastic Cloud ids', () => {
    const syslog = (host: string): SinkIntegration => ({
      platform: 'SYSLOG',
      config: { host, port: 514, protocol: 'UDP' },
    });
    assert.equal(siemTargetProblem(syslog('syslog.example.com'), false), null);
    assert.match(siemTargetProblem(syslog('LOCALHOST.'), false) ?? '', /'config\.host'/);
    assert.equal(siemTargetProblem(syslog('localhost'), true), null);
    assert.match(siemTargetProblem(syslog('169.254.169.254'), true) ?? '', /never/);
    const dd = siemTargetProblem({ platform: 'DATADOG', config: { apiKey: 'k', site: 'localhost' } }, false);
    assert.match(dd ?? '', /'config\.site'/);
    const good = `x:${Buffer.from('eu-west-1.aws.found.io:443$abc$def').toString('base64')}`;
    assert.equal(
      siemTargetProblem({ platform: 'ELASTIC', config: { cloudId: good, apiKey: 'k' } }, false),
      null,
    );
    const metadata = `x:${Buffer.from('169.254.169.254:443$abc$def').toString('base64')}`;
    assert.notEqual(
      siemTargetProblem({ platform: 'ELASTIC', config: { cloudId: metadata, apiKey: 'k' } }, false),
      null,
    );
    const loop = `x:${Buffer.from('localhost$abc$def').toString('base64')}`;
    assert.match(
      siemTargetProblem({ platform: 'ELASTIC', config: { cloudId: loop, apiKey: 'k' } }, false) ?? '',
      /'config\.cloudId'/,
    );
  });
});
