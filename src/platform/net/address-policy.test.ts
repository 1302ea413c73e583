import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress, createAddressPolicy, isForbiddenAddress } from './address-policy.js';
import { parseIPv6 } from './ip.js';

describe('isForbiddenAddress', () => {
  const forbidden = [
    '0.0.0.0',
    '0.1.2.3',
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.0.1',
    '169.254.169.254',
    '192.0.0.192',
    '100.100.100.200',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '198.18.0.1',
    '192.0.2.10',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0:127.0.0.1',
    '::127.0.0.1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    '2001::1',
    '2001:db8::1',
    '0:0:0:0:0:0:0:1',
    'not-an-ip',
    '0177.0.0.1',
    '',
  ];
  for (const ip of forbidden) {
    it(`refuses ${ip || '(empty)'}`, () => assert.equal(isForbiddenAddress(ip), true));
  }

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80e::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const ip of allowed) {
    it(`allows ${ip}`, () => assert.equal(isForbiddenAddress(ip), false));
  }

  it('classifies metadata as never and loopback as private', () => {
    assert.equal(classifyAddress('169.254.169.254'), 'never');
    assert.equal(classifyAddress('fd00:ec2::254'), 'never');
    assert.equal(classifyAddress('127.0.0.1'), 'private');
    assert.equal(classifyAddress('::ffff:169.254.169.254'), 'never');
  });
});

describe('parseIPv6', () => {
  it('expands compressed and dotted forms', () => {
    assert.deepEqual(parseIPv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIPv6('::ffff:1.2.3.4'), [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    assert.deepEqual(parseIPv6('1:2:3:4:5:6:7.8.9.10'), [1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    assert.deepEqual(parseIPv6('fe80::1%lo'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    assert.equal(parseIPv6('1::2::3'), null);
    assert.equal(parseIPv6('1:2:3:4:5:6:7:8:9'), null);
    assert.equal(parseIPv6('12345::'), null);
  });
});

describe('createAddressPolicy', () => {
  it('refuses private addresses by default and allows them with allowPrivate', () => {
    assert.notEqual(createAddressPolicy({ allowPrivate: false }).check('localhost', '127.0.0.1'), null);
    assert.equal(createAddressPolicy({ allowPrivate: true }).check('localhost', '127.0.0.1'), null);
  });

  it('keeps metadata addresses refused even with allowPrivate', () => {
    const p = createAddressPolicy({ allowPrivate: true });
    assert.notEqual(p.check('metadata', '169.254.169.254'), null);
    assert.notEqual(p.check('x', '0.0.0.0'), null);
  });

  it('allows listed host names, wildcard suffixes and CIDR ranges only', () => {
    const p = createAddressPolicy({
      allowPrivate: false,
      allowHosts: ['siem.corp.example', '*.lan.example', '10.20.0.0/16', 'fd00:1::/32'],
    });
    assert.equal(p.check('siem.corp.example', '10.1.1.1'), null);
    assert.equal(p.check('SIEM.corp.example.', '10.1.1.1'), null);
    assert.equal(p.check('a.b.lan.example', '192.168.0.9'), null);
    assert.notEqual(p.check('lan.example.evil', '192.168.0.9'), null);
    assert.equal(p.check('anything', '10.20.3.4'), null);
    assert.equal(p.check('anything', '::ffff:10.20.3.4'), null);
    assert.notEqual(p.check('anything', '10.21.3.4'), null);
    assert.equal(p.check('anything', 'fd00:1:2::3'), null);
    assert.notEqual(p.check('siem.corp.example', '169.254.169.254'), null);
  });
});
