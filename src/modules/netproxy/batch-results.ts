import type { TokenMap } from '../../engines/dlp/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { Vault, VaultSession } from '../dlp/index.js';
import { rehydrateJson } from '../protection/index.js';
import { createNetproxyRepo } from './netproxy.repo.js';

/** The results of an Anthropic message batch (JSONL), fetched at the `results_url` the proxy names. */
// Without regard to case, as routeOf matches the operations (formats.ts); the id is captured as written.
export const BATCH_RESULTS = /^\/v1\/messages\/batches\/([A-Za-z0-9_-]{1,128})\/results$/i;

/** Why a batch's results were relayed with their tokens (`x-svc-rehydration`, docs/netproxy.md). */
export type NotRehydrated = 'unknown_batch' | 'session_expired';

/**
 * Which vault session each Anthropic batch's requests were tokenized into: recorded when the proxy relays
 * the batch's creation (the only moment that knows both the batch id, from Anthropic's answer, and the
 * session), read when its results are fetched. The session is read as the vault keeps it: an expired one
 * is not restored and the record gives it no longer life than the organization's `dlp.sessionTtlHours`.
 */
export function createBatchSessions(deps: {
  db: Db;
  vault: Pick<Vault, 'session'>;
  clock: Clock;
  /** A record that could not be written: the creation's answer still goes out (see record). */
  warn(err: unknown): void;
}) {
  const repo = createNetproxyRepo(deps.db);
  return {
    /**
     * Written before the creation's answer is relayed, so a client that fetches the results at once finds
     * it. A failure is logged, not thrown: the batch exists at Anthropic and is billed, and dropping the
     * answer would leave the client without its id (a retry creates and bills a second batch); its
     * results then come back with their tokens, `x-svc-rehydration: unknown_batch`.
     */
    async record(orgId: string, batchId: string, sessionId: string): Promise<void> {
      await repo
        .insertBatch({
          org_id: orgId,
          batch_id: batchId,
          session_id: sessionId,
          created_at: deps.clock.now().toISOString(),
        })
        .catch((err: unknown) => deps.warn(err));
    },

    /** The session to restore the organization's batch results with, or why there is none. */
    async sessionOf(orgId: string, batchId: string): Promise<VaultSession | NotRehydrated> {
      const sessionId = await repo.batchSession(orgId, batchId);
      if (!sessionId) return 'unknown_batch';
      try {
        return await deps.vault.session(orgId, sessionId);
      } catch (err) {
        if (err instanceof AppError && err.code === 'not_found') return 'session_expired';
        throw err;
      }
    },
  };
}

export type BatchSessions = ReturnType<typeof createBatchSessions>;

const MAYBE_TOKEN = /tkn/i;
const NEWLINE = 0x0a;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Restores the tokens of a batch's JSONL results as they stream: each line is one result, and the
 * message of a succeeded one (`result.message`: text, tool_use input) is restored as a whole Messages
 * answer is (rehydrateJson). Lines are cut on bytes, so a line (or a character) split across chunks is
 * read whole; a line in which nothing was restored goes out as its own bytes, one that was restored as its
 * JSON again, on a line of its own. Only the line being read is held, up to `limit` bytes: a longer line
 * is relayed as it comes, tokens left in it, and counted in `oversized` (the answer's trailer names it).
 */
export class JsonlRehydrator {
  /** Tokens restored over every line. */
  restored = 0;
  /** Lines longer than the limit, relayed as they came. */
  oversized = 0;
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Inside an oversized line: its bytes go out as they come, up to its end. */
  private passing = false;

  constructor(
    private readonly map: TokenMap,
    private readonly limit: number,
  ) {}

  /** What to send for this chunk, in order (possibly nothing: a line not yet ended is held). */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (this.passing) {
        out.push(piece);
        if (nl !== -1) this.passing = false;
        continue;
      }
      const size = this.heldBytes + piece.length;
      if (nl === -1) {
        if (size > this.limit) {
          this.oversized++;
          this.passing = true;
          out.push(...this.held, piece);
          this.drop();
        } else {
          this.held.push(piece);
          this.heldBytes = size;
        }
        continue;
      }
      const line = this.held.length === 0 ? piece : Buffer.concat([...this.held, piece], size);
      this.drop();
      if (line.length - 1 > this.limit) {
        this.oversized++;
        out.push(line);
      } else out.push(this.line(line));
    }
    return out;
  }

  /** The last line, when the file does not end with a newline. */
  end(): Buffer[] {
    if (this.passing || this.held.length === 0) {
      this.passing = false;
      return [];
    }
    const line = Buffer.concat(this.held, this.heldBytes);
    this.drop();
    return [this.line(line)];
  }

  private drop(): void {
    this.held = [];
    this.heldBytes = 0;
  }

  private line(bytes: Buffer): Buffer {
    const text = bytes.toString('utf8');
    if (!MAYBE_TOKEN.test(text)) return bytes;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not a JSON line (none of Anthropic's): relayed as it came.
      return bytes;
    }
    const result = isObj(parsed) ? parsed['result'] : undefined;
    const message = isObj(result) ? result['message'] : undefined;
    if (!isObj(message)) return bytes;
    const n = rehydrateJson(message, this.map);
    if (n === 0) return bytes;
    this.restored += n;
    const eol = text.endsWith('\r\n') ? '\r\n' : text.endsWith('\n') ? '\n' : '';
    return Buffer.from(JSON.stringify(parsed) + eol);
  }
}
