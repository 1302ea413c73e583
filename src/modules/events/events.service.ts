import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import type { Db } from '../../platform/storage/index.js';
import { isPlan, planHasFeature } from '../plans/index.js';
import { type AuditEventType, EVENT_TYPES, type EventType, isEventType } from './event-types.js';
import { createEventsRepo, type StoredEvent } from './events.repo.js';
import { createOutboxRepo } from './outbox.repo.js';
import { webhookWants } from './webhook-filter.js';

export interface EventOrg {
  id: string;
  plan: string;
}

export type EventListener = (orgId: string, ev: StoredEvent) => void;

/**
 * Producers call publish() with the same database handle (or transaction) as the change that caused the
 * event, so the event is committed with that change or not at all. Sinks learn of new events by
 * listening; delivery itself reads the stored rows (the outbox), written here in the same handle.
 */
export function createEventPublisher(deps: { clock: Clock }) {
  const listeners = new Set<EventListener>();
  // Plain closures (no `this`), so producers can be handed `events.publish` itself.
  async function publish(
    db: Db,
    org: EventOrg,
    type: EventType | AuditEventType,
    data: Record<string, unknown>,
  ): Promise<StoredEvent | null> {
    const feature = (EVENT_TYPES as Record<string, string | null>)[type] ?? null;
    if (feature && isPlan(org.plan) && !planHasFeature(org.plan, feature as never)) return null;
    const ev: StoredEvent = { id: newId('evt'), type, created: deps.clock.now().toISOString(), data };
    await createEventsRepo(db).insert(org.id, ev);
    // Same handle as the event: its deliveries commit (or roll back) with it.
    const queued = await createOutboxRepo(db).fanOut(
      org.id,
      ev,
      (subscribed) => isEventType(type) && webhookWants(subscribed, type),
    );
    // Listeners wake the delivery workers. An event nobody subscribed to gives them nothing to do, and
    // waking them for it cost two polling rounds per tokenizing request on the proxy's hot path.
    if (queued > 0) for (const l of listeners) l(org.id, ev);
    return ev;
  }
  return {
    publish,
    /** For producers that know only the organization id; reads the plan through the same handle (transaction). */
    async publishFor(
      db: Db,
      orgId: string,
      type: EventType | AuditEventType,
      data: Record<string, unknown>,
    ): Promise<StoredEvent | null> {
      const row = await db
        .selectFrom('organizations')
        .select('plan')
        .where('id', '=', orgId)
        .executeTakeFirst();
      if (!row) return null;
      return publish(db, { id: orgId, plan: row.plan }, type, data);
    },
    /**
     * Called for each published event that queued at least one delivery (webhook or SIEM). Called after a
     * commit would be better, but listeners only wake workers; the rows are the truth.
     */
    onQueued(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type EventPublisher = ReturnType<typeof createEventPublisher>;
