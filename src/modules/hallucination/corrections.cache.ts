import type { Clock } from '../../platform/clock/index.js';

/**
 * A short-lived per-organization copy of a list, so a check does not read the database each time. Writes in
 * this process invalidate at once; other processes see them when the entry expires (ttlMs).
 */
export interface OrgCache<T> {
  get(orgId: string, load: () => Promise<T>): Promise<T>;
  invalidate(orgId: string): void;
  size(): number;
  weight(): number;
}

interface Entry<T> {
  value: T;
  until: number;
  weight: number;
}

export interface OrgCacheOptions<T> {
  clock: Clock;
  ttlMs: number;
  maxOrgs: number;
  /** Bounds memory: the summed weight of the entries (e.g. characters held) stays at or below maxWeight. */
  weigh: (value: T) => number;
  maxWeight: number;
}

export function createOrgCache<T>(options: OrgCacheOptions<T>): OrgCache<T> {
  const entries = new Map<string, Entry<T>>();
  let totalWeight = 0;
  // A load stores its result only if it is still the org's pending load: invalidation forgets it, so a
  // read that started before a write cannot put the old list back.
  const pending = new Map<string, Promise<T>>();

  function drop(orgId: string): void {
    const e = entries.get(orgId);
    if (!e) return;
    entries.delete(orgId);
    totalWeight -= e.weight;
  }

  function store(orgId: string, value: T): void {
    drop(orgId);
    const weight = options.weigh(value);
    if (weight > options.maxWeight) return;
    // Map order is insertion order and hits re-insert, so the first key is the least recently used.
    while (
      entries.size > 0 &&
      (entries.size >= options.maxOrgs || totalWeight + weight > options.maxWeight)
    ) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      drop(oldest);
    }
    entries.set(orgId, { value, until: options.clock.now().getTime() + options.ttlMs, weight });
    totalWeight += weight;
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
      drop(orgId);
      pending.delete(orgId);
    },
    size: () => entries.size,
    weight: () => totalWeight,
  };
}
