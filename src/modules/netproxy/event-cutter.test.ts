import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventCutter } from './event-cutter.js';

/** Runs `pieces` through a cutter; returns what went out (each write) and the cutter. */
function run(pieces: string[], limit = 1 << 30) {
  const cutter = new EventCutter(limit);
  const writes: string[] = [];
  for (const p of pieces) {
    const out = cutter.push(Buffer.from(p, 'latin1'));
    if (out) writes.push(out.toString('latin1'));
  }
  const rest = cutter.end();
  return { writes, rest: rest?.toString('latin1') ?? '', cutter };
}

describe('EventCutter', () => {
  it('lets out whole events only, with LF, CRLF and CR blank lines, split anywhere (3-byte edges included)', () => {
    const stream = 'data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n: keep\n\ndata: e';
    for (let size = 1; size <= 7; size++) {
      const pieces: string[] = [];
      for (let at = 0; at < stream.length; at += size) pieces.push(stream.slice(at, at + size));
      const { writes, rest } = run(pieces);
      assert.equal(writes.join('') + rest, stream, `pieces of ${size}`);
      for (const w of writes)
        assert.match(w, /(\n\n|\r\n\r\n|\r\r)$/, `pieces of ${size}: ${JSON.stringify(w)}`);
      assert.equal(rest, 'data: e');
    }
  });

  it('an event of n bytes in many chunks costs O(n) bytes searched and copied (it was O(n²))', () => {
    const chunk = 'y'.repeat(1000);
    const chunks = 4000; // 4 MB of one event
    const pieces = [...Array.from({ length: chunks }, () => chunk), '\n\n'];
    const { writes, cutter } = run(pieces);
    const n = chunks * chunk.length + 2;
    assert.equal(writes.join('').length, n);
    // Each byte searched once per blank-line kind, plus 6 bytes across each chunk's start; copied once.
    assert.ok(cutter.scanned <= 3 * n + 18 * pieces.length, `scanned ${cutter.scanned} for ${n}`);
    assert.ok(cutter.copied <= n, `copied ${cutter.copied} for ${n}`);
  });

  it('past the limit the held bytes go out as they are, and the error that follows starts on a blank line', () => {
    const { writes, rest, cutter } = run(['data: ', 'z'.repeat(60), 'z'.repeat(60), 'zz\n\ndata: next'], 100);
    assert.equal(writes[0], `data: ${'z'.repeat(120)}`);
    assert.equal(writes[1], 'zz\n\n');
    assert.equal(rest, 'data: next');
    assert.equal(cutter.partial, false, 'a blank line went out after the partial event');
    const cut = new EventCutter(10);
    assert.equal(cut.push(Buffer.from('data: 123456'))?.toString(), 'data: 123456');
    assert.equal(cut.partial, true);
  });
});
