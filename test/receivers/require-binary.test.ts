import assert from 'node:assert/strict';
import { it } from 'node:test';
import { requireBinary } from './require-binary.js';

it('names the install script when a receiver binary is missing', () => {
  assert.throws(() => requireBinary('parapet-no-such-receiver'), /scripts\/ensure-system-packages\.sh/);
});

it('finds installed binaries outside PATH, such as /usr/sbin/rsyslogd', () => {
  assert.match(requireBinary('rsyslogd'), /\/rsyslogd$/);
});
