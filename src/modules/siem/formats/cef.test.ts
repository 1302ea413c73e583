import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectionEvent } from '../../../../test/receivers/sample-events.js';
import { cefExtensionEscape, cefHeaderEscape, cefMessage } from './cef.js';

/** A reference CEF reader: splits the header on unescaped pipes, then extension keys on unescaped "=". */
function parseCef(line: string) {
  const header: string[] = [];
  let cur = '';
  let i = 0;
  for (; i < line.length && header.length < 7; i++) {
    const c = line[i];
    if (c === '\\' && (line[i + 1] === '|' || line[i + 1] === '\\')) {
      cur += line[++i];
    } else if (c === '|') {
      header.push(cur);
      cur = '';
    } else cur += c;
  }
  const ext = line.slice(i);
  const fields: Record<string, string> = {};
  const keyAt = /(?:^| )([A-Za-z0-9_]+)=/g;
  const keys: { key: string; start: number; valueStart: number }[] = [];
  for (let m = keyAt.exec(ext); m !== null; m = keyAt.exec(ext)) {
    // an "=" preceded by a backslash belongs to a value
    if (ext[m.index + m[0].length - 2] === '\\') continue;
    keys.push({ key: m[1]!, start: m.index, valueStart: m.index + m[0].length });
  }
  keys.forEach((k, n) => {
    const end = n + 1 < keys.length ? keys[n + 1]!.start : ext.length;
    const raw = ext.slice(k.valueStart, end);
    fields[k.key] = raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
  });
  return { header, fields };
}

describe('CEF escaping', () => {
  it('escapes backslash and pipe in the header and removes line breaks', () => {
    assert.equal(cefHeaderEscape('a|b\\c'), 'a\\|b\\\\c');
    assert.equal(cefHeaderEscape('x\r\ny\nz'), 'x y z');
    assert.equal(cefHeaderEscape('a=b'), 'a=b');
  });

  it('escapes backslash, equals and line breaks in extension values but not pipes', () => {
    assert.equal(cefExtensionEscape('a=b'), 'a\\=b');
    assert.equal(cefExtensionEscape('c:\\dir'), 'c:\\\\dir');
    assert.equal(cefExtensionEscape('l1\nl2\rl3'), 'l1\\nl2\\rl3');
    assert.equal(cefExtensionEscape('a|b'), 'a|b');
  });

  it('builds a message a CEF reader splits back into the original values', () => {
    const ev = detectionEvent(1);
    const line = cefMessage(ev, { vendor: 'Par|apet', product: 'Para\\pet', version: '1.0' });
    assert.ok(line.startsWith('CEF:0|Par\\|apet|Para\\\\pet|1.0|detection.high_severity|'));
    assert.ok(!line.includes('\n'));
    const { header, fields } = parseCef(line);
    assert.deepEqual(header.slice(0, 4), ['CEF:0', 'Par|apet', 'Para\\pet', '1.0']);
    assert.equal(header[6], '8');
    assert.equal(fields['externalId'], 'evt_det_1');
    assert.equal(fields['msg'], ev.data['inputPreview']);
    assert.equal(fields['src'], '198.51.100.7');
    assert.equal(fields['act'], 'BLOCKED');
    assert.equal(fields['cn1'], '92');
    assert.equal(fields['cs1'], 'org_test');
    assert.equal(fields['rt'], String(Date.parse(ev.timestamp)));
  });

  it('maps severities to the CEF scale', () => {
    const sev = (s: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL') =>
      cefMessage(detectionEvent(2, { severity: s }), { vendor: 'v', product: 'p', version: '1' }).split(
        '|',
      )[6];
    assert.deepEqual([sev('LOW'), sev('MEDIUM'), sev('HIGH'), sev('CRITICAL')], ['3', '5', '8', '10']);
  });
});
