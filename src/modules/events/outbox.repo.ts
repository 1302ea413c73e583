import { newId, randomBase62 } from '../../platform/crypto/index.js';
import { type Db, runStatement } from '../../platform/storage/index.js';
import type { StoredEvent } from './events.repo.js';

/**
 * The fan-out half of the transactional outbox: in the same handle (transaction) that stores an event, one
 * delivery row per subscribed webhook and one queue row per enabled SIEM integration. Workers only ever read
 * these rows, so an event that committed can be lost by no crash; one that did not commit is sent to no one.
 * SIEM filters (category, minimum severity) are applied by the forwarder, which knows the SIEM mapping.
 */
let lastTick = 0;

/**
 * Queue ids that sort in creation order within a process (microsecond-scale counter, then randomness), so
 * that events stamped with the same millisecond still drain in the order they were published.
 */
export function orderedQueueId(): string {
  lastTick = Math.max(lastTick + 1, Date.now() * 1000);
  return `sq_${lastTick.toString(36).padStart(12, '0')}${randomBase62(8)}`;
}

export function createOutboxRepo(db: Db) {
  return {
    async fanOut(
      orgId: string,
      ev: StoredEvent,
      webhookFilter: (events: string[]) => boolean,
    ): Promise<number> {
      // One round trip for both kinds of subscriber, and SQL rather than the builder: this runs inside
      // every producer's transaction, once per tokenizing request (see dlp.repo.ts).
      const subs = (
        await runStatement<{ id: string; events: string; kind: 'webhook' | 'siem' }>(
          db,
          `select id, events, 'webhook' as kind from webhooks where org_id = ? and enabled = 1
          union all
          select id, '' as events, 'siem' as kind from siem_integrations where org_id = ? and enabled = 1`,
          [orgId, orgId],
        )
      ).rows;
      const hooks = subs.filter((r) => r.kind === 'webhook');
      const siems = subs.filter((r) => r.kind === 'siem');
      const wanted = hooks.filter((h) => webhookFilter(JSON.parse(h.events) as string[]));
      if (wanted.length > 0) {
        await db
          .insertInto('webhook_deliveries')
          .values(
            wanted.map((h) => ({
              id: newId('del'),
              org_id: orgId,
              webhook_id: h.id,
              event_id: ev.id,
              event_type: ev.type,
              status: 'pending',
              attempts: 0,
              next_attempt_at: ev.created,
              last_attempt_at: null,
              delivered_at: null,
              response_code: null,
              response_time_ms: null,
              error: null,
              is_test: 0,
              created_at: ev.created,
            })),
          )
          .execute();
      }
      if (siems.length > 0) {
        await db
          .insertInto('siem_queue')
          .values(
            siems.map((s) => ({
              id: orderedQueueId(),
              org_id: orgId,
              integration_id: s.id,
              event_id: ev.id,
              event_created_at: ev.created,
              status: 'queued',
              attempts: 0,
              last_error: null,
              created_at: ev.created,
            })),
          )
          .execute();
      }
      return wanted.length + siems.length;
    },
  };
}
