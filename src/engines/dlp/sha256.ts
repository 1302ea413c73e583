import { RecentByIdentity } from './recent.js';
// A small SHA-256/HMAC so the engine stays dependency-free and runs unchanged in the browser extension,
// where node:crypto does not exist and WebCrypto is asynchronous (tokenize must stay synchronous).

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Mixes the 64-byte block at `off` into the state `h`. */
function compress(h: Uint32Array, view: DataView, off: number, w: Uint32Array): void {
  for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let hh = h[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const ch = (e & f) ^ (~e & g);
    const t1 = (hh + s1 + ch + K[i]! + w[i]!) >>> 0;
    const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + maj) >>> 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) >>> 0;
  }
  h[0] = (h[0]! + a) >>> 0;
  h[1] = (h[1]! + b) >>> 0;
  h[2] = (h[2]! + c) >>> 0;
  h[3] = (h[3]! + d) >>> 0;
  h[4] = (h[4]! + e) >>> 0;
  h[5] = (h[5]! + f) >>> 0;
  h[6] = (h[6]! + g) >>> 0;
  h[7] = (h[7]! + hh) >>> 0;
}

// Scratch memory of the hash, reused by every call: an HMAC per token on the request path must not leave
// a handful of typed arrays behind each time (they are what outlived the young generation under load).
// Safe because every function here runs to completion synchronously.
const W = new Uint32Array(64);
const H = new Uint32Array(8);
let pad = new Uint8Array(128);
let padView = new DataView(pad.buffer);

/**
 * Hashes `data[0, length)` on from `state`, which has already absorbed `absorbed` bytes (a multiple of 64),
 * and writes the digest into `out`.
 */
function finishInto(
  state: Uint32Array,
  absorbed: number,
  data: Uint8Array,
  length: number,
  out: Uint8Array,
): void {
  const bitLen = (absorbed + length) * 8;
  const padded = ((length + 9 + 63) >> 6) << 6;
  if (padded > pad.length) {
    pad = new Uint8Array(padded * 2);
    padView = new DataView(pad.buffer);
  }
  pad.set(length === data.length ? data : data.subarray(0, length));
  pad.fill(0, length, padded);
  pad[length] = 0x80;
  padView.setUint32(padded - 8, Math.floor(bitLen / 0x100000000));
  padView.setUint32(padded - 4, bitLen >>> 0);
  H.set(state);
  for (let off = 0; off < padded; off += 64) compress(H, padView, off, W);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    out[i * 4] = v >>> 24;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  }
}

function finish(state: Uint32Array, absorbed: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  finishInto(state, absorbed, data, data.length, out);
  return out;
}

export function sha256(data: Uint8Array): Uint8Array {
  return finish(IV, 0, data);
}

interface KeyedPads {
  inner: Uint32Array;
  outer: Uint32Array;
}

// A session's key signs every value of the session: the states after its padded key blocks are computed
// once per burst of tokens, so each HMAC costs two block compressions for a short value instead of four.
// Not a WeakMap: the keys are made per request (recent.ts says why that matters).
const padsByKey = new RecentByIdentity<Uint8Array, KeyedPads>(4);

const KEY_BLOCK = new Uint8Array(64);
const PAD_BLOCK = new Uint8Array(64);
const PAD_VIEW = new DataView(PAD_BLOCK.buffer);

/** The hash state after one block of the key XOR `byte` (scratch memory; only the state is new). */
function stateAfterPad(byte: number): Uint32Array {
  for (let i = 0; i < 64; i++) PAD_BLOCK[i] = KEY_BLOCK[i]! ^ byte;
  const h = new Uint32Array(IV);
  compress(h, PAD_VIEW, 0, W);
  return h;
}

function padsOf(key: Uint8Array): KeyedPads {
  let pads = padsByKey.get(key);
  if (pads) return pads;
  KEY_BLOCK.fill(0);
  KEY_BLOCK.set(key.length > 64 ? sha256(key) : key);
  pads = { inner: stateAfterPad(0x36), outer: stateAfterPad(0x5c) };
  padsByKey.set(key, pads);
  return pads;
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const pads = padsOf(key);
  return finish(pads.outer, 64, finish(pads.inner, 64, message));
}

const encoder = new TextEncoder();
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

let text = new Uint8Array(256);
const INNER = new Uint8Array(32);
const MAC = new Uint8Array(32);

/**
 * HMAC-SHA-256 of a string's UTF-8 bytes, without allocating: the result is shared memory, valid until
 * the next call (read it at once). The token path calls this once per new value.
 */
export function hmacSha256OfText(key: Uint8Array, message: string): Uint8Array {
  if (message.length * 3 > text.length) text = new Uint8Array(message.length * 3 * 2);
  const { written } = encoder.encodeInto(message, text);
  const pads = padsOf(key);
  finishInto(pads.inner, 64, text, written, INNER);
  finishInto(pads.outer, 64, INNER, 32, MAC);
  return MAC;
}
