import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RsyslogReceiver, startRsyslog } from '../../../../test/receivers/rsyslog.js';
import { auditEvent, detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import type { SiemEvent } from '../formats/types.js';
import { createSink } from './create-sink.js';

let rs: RsyslogReceiver;
let outbound: Outbound;
before(async () => {
  rs = await startRsyslog();
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 5000 });
});
after(async () => {
  await outbound.close();
  await rs?.stop();
});

function syslogSink(
  protocol: 'UDP' | 'TCP' | 'TLS',
  format: 'RFC5424' | 'RFC3164' | 'CEF',
  extra: Record<string, unknown> = {},
) {
  const port = protocol === 'UDP' ? rs.udpPort : protocol === 'TCP' ? rs.tcpPort : rs.tlsPort;
  return createSink(
    {
      platform: 'SYSLOG',
      config: {
        host: protocol === 'TLS' ? 'localhost' : '127.0.0.1',
        port,
        protocol,
        facility: 'LOCAL0',
        format,
        appName: 'parapet',
        ...(protocol === 'TLS' ? { tlsCa: rs.pki.caPem } : {}),
        ...extra,
      },
    },
    { outbound, allowPrivate: true, hostname: 'parapet-test', timeoutMs: 3000 },
  );
}

const tagged = (tag: string, ev: SiemEvent): SiemEvent => ({ ...ev, id: `${ev.id}_${tag}` });

describe('syslog sink against rsyslog', () => {
  for (const protocol of ['UDP', 'TCP', 'TLS'] as const) {
    it(`delivers RFC 5424 over ${protocol} with PRI, header and escaped structured data intact`, async () => {
      const sink = syslogSink(protocol, 'RFC5424');
      const ev = tagged(`5424${protocol}`, detectionEvent(1, { organizationId: 'org "q"]\\' }));
      const r = await sink.send([ev, tagged(`5424${protocol}`, dlpEvent(2))]);
      assert.deepEqual(r, { ok: true, retryable: false });
      const got = await rs.waitFor(2, (m) => m.raw.includes(`_5424${protocol}`));
      const m = got.find((x) => x.raw.includes(ev.id))!;
      assert.equal(m.input, protocol.toLowerCase());
      assert.equal(m.pri, '131');
      assert.equal(m.version, '1');
      assert.equal(m.hostname, 'parapet-test');
      assert.equal(m.appname, 'parapet');
      assert.equal(m.msgid, 'detection.high_severity');
      assert.ok(m.sd.startsWith('[parapet@32473 id="evt_det_1_5424'), m.sd);
      assert.ok(m.sd.includes('org="org \\"q\\"\\]\\\\"'), m.sd);
      const msg = m.msg.replace(/^\ufeff/, '');
      const body = JSON.parse(msg) as { id: string; data: { inputPreview: string } };
      assert.equal(body.id, ev.id);
      assert.equal(body.data.inputPreview, ev.data['inputPreview']);
      await sink.close();
    });
  }

  it('keeps a message with embedded newlines as one frame over TLS (octet counting)', async () => {
    const sink = syslogSink('TLS', 'RFC5424');
    const ev = tagged('nl', auditEvent(1, { data: { note: 'line1\nline2\n123 <13>1 fake frame' } }));
    assert.equal((await sink.send([ev])).ok, true);
    const [m] = await rs.waitFor(1, (x) => x.raw.includes(ev.id));
    assert.equal(
      (JSON.parse(m!.msg.replace(/^\ufeff/, '')) as { data: { note: string } }).data.note,
      'line1\nline2\n123 <13>1 fake frame',
    );
    assert.equal(rs.received().filter((x) => x.raw.includes('fake frame')).length, 1);
    await sink.close();
  });

  it('delivers CEF over TCP and TLS with the escaping intact', async () => {
    for (const protocol of ['TCP', 'TLS'] as const) {
      const sink = syslogSink(protocol, 'CEF');
      const ev = tagged(`cef${protocol}`, detectionEvent(5));
      assert.equal((await sink.send([ev])).ok, true);
      const [m] = await rs.waitFor(1, (x) => x.raw.includes(ev.id));
      assert.equal(m!.msgid, 'CEF');
      assert.ok(m!.msg.startsWith('CEF:0|Parapet|Parapet|1.0|detection.high_severity|'), m!.msg);
      assert.ok(m!.msg.includes(`externalId=${ev.id}`));
      assert.ok(
        m!.msg.includes('msg=Ignore all previous instructions \\=\\nline2 | pipe \\\\ back]slash "q"'),
        m!.msg,
      );
      await sink.close();
    }
  });

  it('delivers RFC 3164 over UDP', async () => {
    const sink = syslogSink('UDP', 'RFC3164');
    const ev = tagged('3164', auditEvent(2));
    assert.equal((await sink.send([ev])).ok, true);
    const [m] = await rs.waitFor(1, (x) => x.raw.includes(ev.id));
    assert.equal(m!.version, '0');
    assert.equal(m!.pri, '133');
    assert.equal(m!.hostname, 'parapet-test');
    assert.equal(m!.appname, 'parapet');
    assert.equal((JSON.parse(m!.msg.trim()) as { id: string }).id, ev.id);
    await sink.close();
  });

  it('rejects only an event too large for a UDP datagram, permanently', async () => {
    const sink = syslogSink('UDP', 'RFC5424');
    const big = tagged('big', auditEvent(3, { data: { blob: 'x'.repeat(70_000) } }));
    const small = tagged('small', auditEvent(4));
    const r = await sink.send([big, small]);
    assert.equal(r.ok, false);
    assert.equal(r.retryable, false);
    assert.deepEqual(
      r.rejected?.map((x) => x.id),
      [big.id],
    );
    await rs.waitFor(1, (x) => x.raw.includes(small.id));
    await sink.close();
  });

  it('delivers a 2,000-event batch over one TLS connection', async () => {
    const sink = syslogSink('TLS', 'RFC5424');
    const events = Array.from({ length: 2000 }, (_, i) => tagged('bulk', detectionEvent(i)));
    assert.equal((await sink.send(events)).ok, true);
    const got = await rs.waitFor(2000, (x) => x.raw.includes('_bulk"'));
    assert.equal(new Set(got.map((g) => g.sd)).size, 2000);
    await sink.close();
  });

  it('refuses a TLS receiver whose certificate is not trusted', async () => {
    const sink = createSink(
      {
        platform: 'SYSLOG',
        config: { host: 'localhost', port: rs.tlsPort, protocol: 'TLS', format: 'RFC5424' },
      },
      { outbound, allowPrivate: true, timeoutMs: 3000 },
    );
    const r = await sink.send([detectionEvent(1)]);
    assert.equal(r.ok, false);
    assert.match(r.error ?? '', /^tls/);
    await sink.close();
  });

  it('reports a closed port as retryable and is blocked by the SSRF guard when private is not allowed', async () => {
    const down = createSink(
      { platform: 'SYSLOG', config: { host: '127.0.0.1', port: 1, protocol: 'TCP' } },
      { outbound, allowPrivate: true, timeoutMs: 3000 },
    );
    const r = await down.send([detectionEvent(1)]);
    assert.equal(r.ok, false);
    assert.equal(r.retryable, true);
    const strict = createOutbound({ allowPrivate: false, timeoutMs: 1000 });
    for (const protocol of ['UDP', 'TCP'] as const) {
      for (const host of ['127.0.0.1', 'localhost']) {
        const blocked = createSink(
          { platform: 'SYSLOG', config: { host, port: rs.tcpPort, protocol } },
          { outbound: strict, allowPrivate: false, timeoutMs: 1000 },
        );
        const b = await blocked.send([tagged('blocked', detectionEvent(1))]);
        assert.equal(b.reason, 'blocked', `${protocol} ${host}: ${b.error}`);
        await blocked.close();
      }
    }
    await strict.close();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(rs.received().filter((x) => x.raw.includes('_blocked')).length, 0);
  });

  it('reports a receiver outage as retryable and resumes on the same sink when it returns', async () => {
    for (const protocol of ['TCP', 'TLS'] as const) {
      const sink = syslogSink(protocol, 'RFC5424');
      const before = tagged(`pre${protocol}`, auditEvent(1));
      assert.equal((await sink.send([before])).ok, true);
      await rs.waitFor(1, (x) => x.raw.includes(before.id));
      await rs.stopDaemon();
      // The receiver's close reaches our socket asynchronously; a send soon reports the refused reconnect.
      let failed: Awaited<ReturnType<typeof sink.send>> | null = null;
      for (let i = 0; i < 40 && failed === null; i++) {
        const r = await sink.send([tagged(`down${protocol}${i}`, auditEvent(i))]);
        if (!r.ok) failed = r;
        else await new Promise((res) => setTimeout(res, 50));
      }
      assert.ok(failed !== null, 'a send must fail while the receiver is down');
      assert.equal(failed.retryable, true);
      assert.equal(failed.reason, 'transient');
      await rs.startDaemon();
      const after = tagged(`post${protocol}`, auditEvent(2));
      assert.deepEqual(await sink.send([after]), { ok: true, retryable: false });
      await rs.waitFor(1, (x) => x.raw.includes(after.id));
      await sink.close();
    }
  });
});
