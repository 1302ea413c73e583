import type { Clock } from '../../platform/clock/index.js';

/**
 * A short-lived per-organization copy of a list, so a check does not read the database each time. Writes in
 * this process invalidate at once; other processes see them when the entry expires (ttlMs).
 */
export interface OrgCache<T> {
  get(orgId: string, load: () => Promise<T>): Promise<T>;
  invalidate(orgId: string): void;
  size(): number;
}

interface Entry<T> {
  value: T;
  until: number;
}

export function createOrgCache<T>(options: { clock: Clock; ttlMs: number; maxOrgs: number }): OrgCache<T> {
  const entries = new Map<string, Entry<T>>();
  // A load stores its result only if it is still the org's pending load: invalidation forgets it, so a
  // read that started before a write cannot put the old list back.
  const pending = new Map<string, Promise<T>>();

  function store(orgId: string, value: T): void {
    entries.delete(orgId);
    if (entries.size >= options.maxOrgs) {
      // Map order is insertion order and hits re-insert, so the first key is the least recently used.
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(orgId, { value, until: options.clock.now().getTime() + options.ttlMs });
  }

  return {
    async get(orgId, load) {
      const hit = entries.get(orgId);
      if (hit && hit.until > options.clock.now().getTime()) {
        entries.delete(orgId);
        entries.set(orgId, hit);
        return hit.value;
      }
      const inFlight = pending.get(orgId);
      if (inFlight) return inFlight;
      const loading: Promise<T> = load().then(
        (value) => {
          if (pending.get(orgId) === loading) {
            pending.delete(orgId);
            store(orgId, value);
          }
          return value;
        },
        (err: unknown) => {
          if (pending.get(orgId) === loading) pending.delete(orgId);
          throw err;
        },
      );
      pending.set(orgId, loading);
      return loading;
    },
    invalidate(orgId) {
      entries.delete(orgId);
      pending.delete(orgId);
    },
    size: () => entries.size,
  };
}
