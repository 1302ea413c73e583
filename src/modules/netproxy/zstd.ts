import { Decompress } from 'fzstd';

/**
 * RFC 8878 (zstd as an HTTP content coding) caps the window an encoder may use at 8 MB, and lets a decoder
 * refuse more. The pure-JS decoder allocates the window a frame declares before reading it, so a few bytes
 * declaring a 2 GB window would cost 2 GB: every frame header is read first and refused beyond this.
 */
export const ZSTD_MAX_WINDOW = 8 * 1024 * 1024;

const ZSTD_MAGIC = 0xfd2fb528;

function fail(message: string, code = 'ERR_ZSTD_INVALID'): never {
  throw Object.assign(new Error(message), { code });
}

/**
 * Walks the frames of a zstd body (RFC 8878 §3.1) without decoding them: each frame's window size, from
 * its header, and its blocks' sizes, from their 3-byte headers, to find the next frame.
 */
export function zstdWindows(buf: Uint8Array): number[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const windows: number[] = [];
  let at = 0;
  while (at < buf.length) {
    if (at + 8 > buf.length) fail('truncated zstd frame');
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + view.getUint32(at + 4, true); // skippable frame
      continue;
    }
    if (magic !== ZSTD_MAGIC) fail('not a zstd frame');
    const flags = buf[at + 4] as number;
    const fcsFlag = flags >> 6;
    const singleSegment = (flags >> 5) & 1;
    const checksum = (flags >> 2) & 1;
    const dictFlag = flags & 3;
    if (flags & 8) fail('reserved zstd header bit set');
    let p = at + 5;
    let window = 0;
    if (!singleSegment) {
      const d = buf[p++] as number;
      const base = 2 ** (10 + (d >> 3));
      window = base + (base / 8) * (d & 7);
    }
    p += [0, 1, 2, 4][dictFlag] as number;
    const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
    if (singleSegment) {
      if (p + fcsBytes > buf.length) fail('truncated zstd frame header');
      let size = 0;
      for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + (buf[p + i] as number);
      window = fcsBytes === 2 ? size + 256 : size;
    }
    p += fcsBytes;
    windows.push(window);
    for (;;) {
      if (p + 3 > buf.length) fail('truncated zstd block');
      const header = (buf[p] as number) | ((buf[p + 1] as number) << 8) | ((buf[p + 2] as number) << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) fail('reserved zstd block type');
      p += 3 + (type === 1 ? 1 : size); // an RLE block stores its one byte
      if (last) break;
    }
    at = p + (checksum ? 4 : 0);
  }
  if (at !== buf.length) fail('truncated zstd frame');
  return windows;
}

/**
 * Decodes a zstd body with fzstd (Node 20 has no zstd), within `maxOutputLength`; the error codes match
 * node:zlib's for a body that decodes larger than that.
 */
export function zstdDecompress(buf: Buffer, opts: { maxOutputLength: number }): Buffer {
  for (const w of zstdWindows(buf))
    if (w > ZSTD_MAX_WINDOW)
      fail(`zstd window of ${w} bytes is over the 8 MB of RFC 8878`, 'ERR_ZSTD_WINDOW');
  const parts: Uint8Array[] = [];
  let size = 0;
  const decoder = new Decompress((chunk) => {
    size += chunk.length;
    if (size > opts.maxOutputLength) fail('decompressed body too large', 'ERR_BUFFER_TOO_LARGE');
    parts.push(chunk.slice()); // the decoder may reuse the memory behind a chunk
  });
  decoder.push(buf, true);
  return Buffer.concat(parts, size);
}
