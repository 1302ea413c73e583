import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ZSTD_MAX_WINDOW, zstdDecompress, zstdWindows } from './zstd.js';

/** The reference encoder (Debian's zstd), reading standard input so that no content size is known. */
function zstd(input: Buffer, ...args: string[]): Buffer {
  const out = spawnSync('zstd', ['-q', '-c', ...args], { input, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(out.status, 0, out.stderr?.toString());
  return out.stdout;
}

const TEXT = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: 'héllo '.repeat(5000) }] }));

describe('zstd request bodies', () => {
  it('decodes what the reference encoder writes, at several levels, and concatenated frames', () => {
    for (const level of ['-1', '-3', '-19'])
      assert.deepEqual(zstdDecompress(zstd(TEXT, level), { maxOutputLength: 1 << 20 }), TEXT);
    const two = Buffer.concat([zstd(TEXT.subarray(0, 100)), zstd(TEXT.subarray(100))]);
    assert.equal(zstdWindows(two).length, 2);
    assert.deepEqual(zstdDecompress(two, { maxOutputLength: 1 << 20 }), TEXT);
  });

  it('skips skippable frames', () => {
    const skippable = Buffer.alloc(8 + 5);
    skippable.writeUInt32LE(0x184d2a53, 0);
    skippable.writeUInt32LE(5, 4);
    const body = Buffer.concat([skippable, zstd(TEXT)]);
    assert.deepEqual(zstdDecompress(body, { maxOutputLength: 1 << 20 }), TEXT);
  });

  it('refuses a window over 8 MB before allocating it', () => {
    const wide = zstd(TEXT, '--long=24');
    assert.ok((zstdWindows(wide)[0] ?? 0) > ZSTD_MAX_WINDOW);
    assert.throws(() => zstdDecompress(wide, { maxOutputLength: 1 << 20 }), { code: 'ERR_ZSTD_WINDOW' });
  });

  it('stops at the output limit (a small body that expands a thousandfold)', () => {
    const bomb = zstd(Buffer.alloc(4 * 1024 * 1024));
    assert.ok(bomb.length < 4096);
    assert.throws(() => zstdDecompress(bomb, { maxOutputLength: 1 << 20 }), { code: 'ERR_BUFFER_TOO_LARGE' });
  });

  it('refuses truncated and foreign data', () => {
    const ok = zstd(TEXT);
    assert.throws(() => zstdDecompress(ok.subarray(0, ok.length - 5), { maxOutputLength: 1 << 20 }));
    assert.throws(() => zstdDecompress(Buffer.from('not zstd at all'), { maxOutputLength: 1 << 20 }));
  });
});
