/** The blank lines that end an event (SSE: LF, CRLF or CR line endings); the longest is 4 bytes. */
const BLANK_LINES = ['\n\n', '\r\n\r\n', '\r\r'];
const EDGE = 3;

/** Where the last whole event of `buf` ends (after its blank line), 0 when none does. */
function eventsEnd(buf: Buffer): number {
  let end = 0;
  for (const blank of BLANK_LINES) {
    const at = buf.lastIndexOf(blank);
    if (at !== -1) end = Math.max(end, at + blank.length);
  }
  return end;
}

/**
 * Cuts an event stream relayed as it came into whole events (pipeRaw): the bytes after the last blank line
 * wait for the rest of their event. What is held stays the list of chunks as they came, and each new chunk
 * is searched alone, plus the few bytes across its start (a blank line is at most 4 bytes, so 3 held bytes
 * and 3 new ones): every byte is searched a fixed number of times and copied once. Concatenating the held
 * bytes with each chunk and searching them all again made an event that arrives in n pieces cost O(n²)
 * copies and searches, without bound. Past `limit` held bytes (an event larger than the proxy accepts
 * as a body) the held bytes go out as they are, and the holding starts again.
 */
export class EventCutter {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes searched and bytes copied so far: the cost, which a test checks is linear in the stream. */
  scanned = 0;
  copied = 0;
  /** What went out ends inside an event (held bytes let go past the limit): an error event needs a blank line first. */
  partial = false;

  constructor(private readonly limit: number) {}

  /** What can go out now that `chunk` came: whole events (with the bytes held before them), or nothing. */
  push(chunk: Buffer): Buffer | null {
    let cut = eventsEnd(chunk);
    this.scanned += chunk.length * BLANK_LINES.length;
    if (this.heldBytes > 0) {
      // A blank line split between the held bytes and this chunk ends within the chunk's first 3 bytes.
      const tail = this.lastHeld(EDGE);
      const edge = Buffer.concat([tail, chunk.subarray(0, EDGE)]);
      this.scanned += edge.length * BLANK_LINES.length;
      cut = Math.max(cut, eventsEnd(edge) - tail.length);
    }
    if (cut > 0) {
      this.partial = false;
      const out = this.take(chunk.subarray(0, cut));
      if (cut < chunk.length) this.hold(chunk.subarray(cut));
      return out;
    }
    this.hold(chunk);
    if (this.heldBytes <= this.limit) return null;
    this.partial = true;
    return this.take(null);
  }

  /** The bytes still held (the stream ended inside an event), or null. */
  end(): Buffer | null {
    return this.heldBytes > 0 ? this.take(null) : null;
  }

  private hold(part: Buffer): void {
    this.held.push(part);
    this.heldBytes += part.length;
  }

  /** The held bytes and `last` as one buffer (one write), the holding emptied. */
  private take(last: Buffer | null): Buffer {
    if (last) this.held.push(last);
    const parts = this.held;
    this.held = [];
    this.heldBytes = 0;
    if (parts.length === 1) return parts[0] as Buffer;
    const out = Buffer.concat(parts);
    this.copied += out.length;
    return out;
  }

  /** The last `n` held bytes (or fewer, when fewer are held), whichever chunks they are in. */
  private lastHeld(n: number): Buffer {
    const parts: Buffer[] = [];
    let want = n;
    for (let i = this.held.length - 1; i >= 0 && want > 0; i--) {
      const part = this.held[i] as Buffer;
      const piece = part.subarray(Math.max(0, part.length - want));
      parts.unshift(piece);
      want -= piece.length;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}
