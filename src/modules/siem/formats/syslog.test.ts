import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEvent, detectionEvent } from '../../../../test/receivers/sample-events.js';
import { headerField, octetFrame, rfc3164, rfc5424, sdEscape } from './syslog.js';

const opts = { facility: 'LOCAL0', appName: 'parapet', hostname: 'host-1', procId: '42' };

describe('RFC 5424', () => {
  it('writes PRI from facility and severity, version 1 and the header fields', () => {
    const line = rfc5424(detectionEvent(1), opts);
    // local0 (16) * 8 + error (3) = 131
    assert.match(
      line,
      /^<131>1 2026-11-22T03:00:00\.001Z host-1 parapet 42 detection\.high_severity \[parapet@32473 /,
    );
    assert.equal(rfc5424(auditEvent(1), { ...opts, facility: 'AUTH' }).slice(0, 7), '<37>1 2');
  });

  it('escapes quote, backslash and closing bracket in SD values', () => {
    assert.equal(sdEscape('a"b\\c]d'), 'a\\"b\\\\c\\]d');
    const line = rfc5424(detectionEvent(1, { organizationId: 'org "x"]\\' }), opts);
    assert.ok(line.includes('org="org \\"x\\"\\]\\\\"'));
  });

  it('starts MSG with a BOM and carries the event as JSON', () => {
    const line = rfc5424(detectionEvent(3), opts);
    const msg = line.slice(line.indexOf('\ufeff') + 1);
    assert.equal((JSON.parse(msg) as { id: string }).id, 'evt_det_3');
  });

  it('keeps header fields printable and bounded', () => {
    assert.equal(headerField('a b\tc', 48), 'abc');
    assert.equal(headerField('', 48), '-');
    assert.equal(headerField('x'.repeat(60), 48).length, 48);
  });

  it('carries CEF without SD or BOM', () => {
    const line = rfc5424(detectionEvent(4), opts, true);
    assert.match(line, /^<131>1 \S+ host-1 parapet 42 CEF - CEF:0\|Parapet\|Parapet\|/);
    assert.ok(!line.includes('\ufeff'));
  });
});

describe('RFC 3164', () => {
  it('uses the BSD timestamp with a space-padded day', () => {
    const line = rfc3164(auditEvent(1, { timestamp: '2026-11-02T04:05:06.000Z' }), opts);
    assert.ok(line.startsWith('<133>Nov  2 04:05:06 host-1 parapet[42]: {'), line);
  });
});

describe('octet counting', () => {
  it('prefixes the UTF-8 byte length, so embedded newlines stay inside one frame', () => {
    assert.equal(octetFrame('abc'), '3 abc');
    assert.equal(octetFrame('é\nx'), '4 é\nx');
    const msg = rfc5424(detectionEvent(5), opts);
    const frame = octetFrame(msg);
    const len = Number(frame.slice(0, frame.indexOf(' ')));
    assert.equal(Buffer.from(frame.slice(frame.indexOf(' ') + 1)).length, len);
  });
});
