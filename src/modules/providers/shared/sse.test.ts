import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SseEvent, SseParser } from './sse.js';

function parseInPieces(text: string, cuts: number[]): SseEvent[] {
  const parser = new SseParser();
  const out: SseEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  out.push(...parser.end());
  return out;
}

const STREAM =
  ': keep-alive comment\n' +
  'event: message_start\r\ndata: {"a":1}\r\n\r\n' +
  'data: line one\ndata: line two\n\n' +
  'event:ping\rdata:{}\r\r' +
  'data: {"text":"Zürich 👋"}\n\n' +
  'data: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"a":1}' },
  { event: undefined, data: 'line one\nline two' },
  { event: 'ping', data: '{}' },
  { event: undefined, data: '{"text":"Zürich 👋"}' },
  { event: undefined, data: '[DONE]' },
];

describe('SseParser', () => {
  it('handles LF, CRLF and CR endings, comments, named events and multi-line data', () => {
    assert.deepEqual(parseInPieces(STREAM, []), EXPECTED);
  });

  it('gives the same events however the bytes are split across reads', () => {
    for (let i = 0; i <= STREAM.length; i++) {
      for (const j of [i, Math.min(STREAM.length, i + 1), Math.min(STREAM.length, i + 7)]) {
        assert.deepEqual(parseInPieces(STREAM, [i, j]), EXPECTED, `cut at ${i} and ${j}`);
      }
    }
  });

  it('delivers a last event that lacks its blank line at end of stream', () => {
    assert.deepEqual(parseInPieces('data: tail', []), [{ event: undefined, data: 'tail' }]);
  });

  it('refuses an event that grows past the size cap', () => {
    const parser = new SseParser();
    assert.throws(() => {
      for (let i = 0; i < 40; i++) parser.push(`data: ${'x'.repeat(32 * 1024)}\n`);
    }, RangeError);
  });
});
