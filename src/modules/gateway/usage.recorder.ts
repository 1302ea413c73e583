import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { type Db, sqliteTransactions, statementChunks } from '../../platform/storage/index.js';
import { createGatewayRepo, type UsageRow } from './gateway.repo.js';

export interface UsageRecord {
  orgId: string;
  endpoint: 'chat' | 'proxy';
  provider: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  source: 'provider' | 'estimated';
  outcome: 'ok' | 'aborted' | 'error';
  conversationId?: string;
}

// Small batches often rather than one large batch a second: an embedded (synchronous) database blocks the
// event loop for the whole insert, and at 2,000 requests/s a one-second batch held every request for
// 10-20 ms once a second, which is what a p99 sees. Between chunks the loop serves requests.
const FLUSH_MS = 200;
// A power of two, so that a batch splits into a few statement shapes (statementChunks).
const CHUNK_ROWS = 64;
// Beyond this many unflushed rows (a database outage), the oldest are dropped rather than exhaust memory.
const MAX_PENDING = 50_000;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Token usage and cost of every provider call, written in batches: a few inserts a second instead of one
 * per request keeps the proxy's hot path free of database writes.
 */
export function createUsageRecorder(deps: { db: Db; clock: Clock }) {
  const repo = createGatewayRepo(deps.db);
  // On SQLite in a transaction of its own: an insert outside one waited for another process's write lock
  // (PARAPET_HTTP_WORKERS) in SQLite's busy handler, which sleeps the event loop; this waits with it free.
  // On PostgreSQL the insert alone (a transaction would only add two round trips).
  const sqliteWrite = sqliteTransactions(deps.db);
  const insert = (rows: UsageRow[]): Promise<unknown> =>
    sqliteWrite ? sqliteWrite((trx) => createGatewayRepo(trx).insertUsage(rows)) : repo.insertUsage(rows);
  let pending: UsageRow[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    // A loop, not one wait: another caller woken by the same flush may have started the next one, and
    // returning before it ends would let close() finish with rows still unwritten.
    while (flushing) await flushing;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    let written = 0;
    flushing = (async () => {
      try {
        for (const size of statementChunks(batch.length, CHUNK_ROWS)) {
          if (written > 0) await yieldToRequests();
          await insert(batch.slice(written, written + size));
          written += size;
        }
      } catch {
        // Chunks already written stay written; only the rest goes back, so nothing is counted twice.
        pending = [...batch.slice(written), ...pending].slice(-MAX_PENDING);
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    record(r: UsageRecord): void {
      pending.push({
        id: newId('use'),
        org_id: r.orgId,
        endpoint: r.endpoint,
        provider: r.provider,
        model: r.model,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        cost: r.cost,
        usage_source: r.source,
        outcome: r.outcome,
        conversation_id: r.conversationId ?? null,
        created_at: deps.clock.now().toISOString(),
      });
      if (pending.length > MAX_PENDING) pending.shift();
    },
    /**
     * A provider call that failed before its answer began (an error status, a refused connection, a
     * timeout): counted as `error` with no tokens or cost, since providers bill none for it.
     */
    failed(r: Pick<UsageRecord, 'orgId' | 'endpoint' | 'provider' | 'model' | 'conversationId'>): void {
      this.record({
        ...r,
        promptTokens: 0,
        completionTokens: 0,
        cost: 0,
        source: 'estimated',
        outcome: 'error',
      });
    },
    flush,
    /** Flushes first, so a caller sees its own requests. */
    async recent(orgId: string, limit = 100): Promise<UsageRow[]> {
      await flush();
      return repo.usage(orgId, limit);
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type UsageRecorder = ReturnType<typeof createUsageRecorder>;
