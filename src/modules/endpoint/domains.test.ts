import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDomainSet, minimalBases } from './domains.js';
import { exportDnsConfig } from './dns-export.js';

describe('domain rules', () => {
  it('a rule covers the domain and its subdomains, never a look-alike', () => {
    const s = createDomainSet(['chat.example', '*.assistant.example']);
    assert.equal(s.match('chat.example'), 'chat.example');
    assert.equal(s.match('A.B.Chat.Example.'), 'chat.example');
    assert.equal(s.match('assistant.example'), 'assistant.example');
    assert.equal(s.match('notchat.example'), undefined);
    assert.equal(s.match('chat.example.evil'), undefined);
    assert.equal(s.match('example'), undefined);
  });

  it('minimal bases drop duplicates and names under another entry', () => {
    assert.deepEqual(minimalBases(['a.x.y', '*.x.y', 'x.y', 'b.z']), ['b.z', 'x.y']);
  });

  it('exports: hosts and plain lists leave allowed exceptions out', () => {
    const cfg = {
      enabled: true,
      mode: 'blocklist' as const,
      blockedDomains: ['x.y', 'keep.z'],
      allowedDomains: ['keep.z'],
      blockPage: { enabled: false, message: '', contactEmail: 'a@b.c' },
      integration: { type: 'firewall' as const, forwarders: [] },
    };
    const opts = { serial: 3, blockAddress: '0.0.0.0', generatedAt: 't' };
    assert.equal(exportDnsConfig(cfg, 'domains', opts), 'x.y\n');
    assert.match(exportDnsConfig(cfg, 'hosts', opts), /^0\.0\.0\.0 x\.y$/m);
    assert.doesNotMatch(exportDnsConfig(cfg, 'hosts', opts), /keep\.z$/m);
    assert.match(exportDnsConfig(cfg, 'rpz', opts), /\( 3 3600/);
  });

  it('exports of a disabled configuration block nothing, and say why where the format has comments', () => {
    const cfg = {
      enabled: false,
      mode: 'blocklist' as const,
      blockedDomains: ['deepseek.com'],
      allowedDomains: ['ok.deepseek.com'],
      blockPage: { enabled: false, message: '', contactEmail: 'a@b.c' },
      integration: { type: 'firewall' as const, forwarders: [] },
    };
    const opts = { serial: 3, blockAddress: '0.0.0.0', generatedAt: 't' };
    for (const format of ['rpz', 'hosts', 'adguard', 'domains'] as const) {
      const text = exportDnsConfig(cfg, format, opts);
      assert.doesNotMatch(text, /deepseek/, format);
      if (format !== 'domains') assert.match(text, /disabled/, format);
    }
    assert.equal(exportDnsConfig(cfg, 'domains', opts), '');
    assert.match(exportDnsConfig(cfg, 'rpz', opts), /\( 3 3600/, 'still a loadable zone');
  });
});
