import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../platform/errors/index.js';
import type { Organization } from '../orgs/index.js';
import { checkClientNetworks, createNetworkDirectory, parseCidr } from './networks.js';

describe('client networks', () => {
  it('parses and normalizes CIDRs of both families, a bare address being one host', () => {
    assert.equal(parseCidr('10.1.2.3/16')?.text, '10.1.0.0/16');
    assert.equal(parseCidr('192.168.4.7')?.text, '192.168.4.7/32');
    assert.equal(parseCidr('0.0.0.0/0')?.text, '0.0.0.0/0');
    assert.equal(parseCidr('2001:db8:abcd:12::5/48')?.text, '2001:db8:abcd::/48');
    assert.equal(parseCidr('fd00::1')?.text, 'fd00::1/128');
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0/8',
      'example.com',
      '10.0.0.0/8/1',
      '::ffff:1.2.3.4',
      'fe80::1%eth0',
      '1.2.3.4/-1',
      '',
    ])
      assert.equal(parseCidr(bad), undefined, bad);
  });

  it('refuses a bad entry naming it (400), and an overlap with another organization (409)', () => {
    assert.deepEqual(checkClientNetworks(['10.0.0.0/8', '10.0.0.1/8'], []), ['10.0.0.0/8']);
    assert.throws(
      () => checkClientNetworks(['10.0.0.0/8', 'nope'], []),
      (e: unknown) => e instanceof AppError && e.statusCode === 400 && /clientNetworks\[1\]/.test(e.message),
    );
    const others = [{ orgId: 'org_b', networks: ['10.20.0.0/16'] }];
    for (const clash of [['10.20.30.0/24'], ['10.0.0.0/8']])
      assert.throws(
        () => checkClientNetworks(clash, others),
        (e: unknown) => e instanceof AppError && e.statusCode === 409,
        clash[0],
      );
    assert.deepEqual(checkClientNetworks(['10.21.0.0/16'], others), ['10.21.0.0/16']);
  });

  it('refuses a network broader than one organization holds (0.0.0.0/0 would take every keyless client)', () => {
    for (const [entry, floor] of [
      ['0.0.0.0/0', 8],
      ['10.0.0.0/7', 8],
      ['::/0', 32],
      ['2001:db8::/31', 32],
    ] as const)
      assert.throws(
        () => checkClientNetworks(['192.168.1.0/24', entry], []),
        (e: unknown) =>
          e instanceof AppError &&
          e.statusCode === 400 &&
          e.message.includes('clientNetworks[1]') &&
          e.message.includes(`/${floor}`),
        entry,
      );
    assert.deepEqual(checkClientNetworks(['10.0.0.0/8', '2001:db8::/32'], []), [
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
  });

  it('finds the organization of an address (IPv4-mapped too) and sees a new network after a miss', async () => {
    let now = 0;
    let reads = 0;
    const orgs: Array<Pick<Organization, 'id' | 'settings'>> = [
      { id: 'org_a', settings: { netproxy: { clientNetworks: ['10.1.0.0/16'] } } },
      { id: 'org_b', settings: {} },
    ];
    const directory = createNetworkDirectory({
      listOrgs: async () => {
        reads++;
        return orgs as Organization[];
      },
      now: () => now,
    });
    assert.equal(await directory.orgIdFor('10.1.9.9'), 'org_a');
    assert.equal(await directory.orgIdFor('::ffff:10.1.0.1'), 'org_a');
    assert.equal(await directory.orgIdFor('10.2.0.1'), undefined);
    assert.equal(reads, 1, 'a miss right after a read does not read again');
    (orgs[1] as { settings: Record<string, unknown> }).settings = {
      netproxy: { clientNetworks: ['10.2.0.0/16'] },
    };
    now += 1_000;
    assert.equal(await directory.orgIdFor('10.2.0.1'), 'org_b');
    assert.equal(reads, 2);
  });
});
