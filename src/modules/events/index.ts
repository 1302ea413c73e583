export { AUDIT_EVENT_TYPES, EVENT_TYPES, isEventType } from './event-types.js';
export type { AuditEventType, EventType } from './event-types.js';
export { createEventsRepo } from './events.repo.js';
export type { StoredEvent } from './events.repo.js';
export { createEventPublisher } from './events.service.js';
export type { EventListener, EventOrg, EventPublisher } from './events.service.js';
