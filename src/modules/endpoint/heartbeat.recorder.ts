import type { Db } from '../../platform/storage/index.js';
import { createEndpointRepo, type DeviceRow, type StatsDelta } from './endpoint.repo.js';

// A quarter second: heartbeats answer from memory and at most this much last-seen and statistics is lost
// if the process dies; one transaction per flush instead of one per heartbeat.
const FLUSH_MS = 250;
const STATS_CHUNK = 64;
// Beyond this many pending statistics rows (a database outage), new ones are dropped rather than exhaust memory.
const MAX_PENDING = 100_000;

type DeviceFacts = Pick<Partial<DeviceRow>, 'last_seen_at' | 'extension_version' | 'browser' | 'os'>;

/**
 * Heartbeats are the endpoint product's hottest path (10,000 devices at a 60 s interval is 170 a second
 * per organization), so their writes are batched: the last facts per device and the summed statistics
 * per hour, device and domain are flushed together. Readers in this process (statistics, device lists)
 * flush first, so what a client just sent is what it reads back.
 */
export function createHeartbeatRecorder(deps: {
  db: Db;
  /** Told when an organization's batch could not be written (it is kept and tried again): ids and counts only. */
  onWriteError?: (err: unknown, info: { orgId: string; devices: number; statsRows: number }) => void;
}) {
  let devices = new Map<string, { orgId: string; set: DeviceFacts }>();
  let stats = new Map<string, StatsDelta & { orgId: string }>();
  let flushing: Promise<void> | null = null;
  // The device facts being written by the flush in flight: still newer than the database until it ends.
  let writing = new Map<string, { orgId: string; set: DeviceFacts }>();

  async function writeOrg(
    orgId: string,
    orgDevices: Array<[string, { orgId: string; set: DeviceFacts }]>,
    orgStats: StatsDelta[],
  ): Promise<void> {
    await deps.db.transaction().execute(async (trx) => {
      const r = createEndpointRepo(trx);
      for (const [id, d] of orgDevices) await r.updateDevice(orgId, id, d.set);
      for (let i = 0; i < orgStats.length; i += STATS_CHUNK)
        await r.addStats(orgId, orgStats.slice(i, i + STATS_CHUNK));
    });
  }

  /**
   * One transaction per organization: a batch that one organization's rows make fail (a refused row, an
   * organization deleted meanwhile) used to fail whole and be put back whole, so no device of any
   * organization was recorded again. Now only that organization's rows wait for the next flush.
   */
  async function writeBatch(batchDevices: typeof devices, batchStats: typeof stats): Promise<void> {
    const orgs = new Map<
      string,
      {
        devices: Array<[string, { orgId: string; set: DeviceFacts }]>;
        stats: Array<[string, StatsDelta & { orgId: string }]>;
      }
    >();
    const of = (orgId: string) => {
      const have = orgs.get(orgId);
      if (have) return have;
      const o: typeof orgs extends Map<string, infer V> ? V : never = { devices: [], stats: [] };
      orgs.set(orgId, o);
      return o;
    };
    for (const entry of batchDevices) of(entry[1].orgId).devices.push(entry);
    for (const entry of batchStats) of(entry[1].orgId).stats.push(entry);
    for (const [orgId, o] of orgs) {
      try {
        await writeOrg(
          orgId,
          o.devices,
          o.stats.map(([, v]) => v),
        );
      } catch (err) {
        deps.onWriteError?.(err, { orgId, devices: o.devices.length, statsRows: o.stats.length });
        // Put back what was not written (its transaction wrote nothing); newer facts of a device win.
        for (const [id, v] of o.devices) if (!devices.has(id)) devices.set(id, v);
        for (const [k, v] of o.stats) {
          const cur = stats.get(k);
          if (cur) add(cur, v);
          else if (stats.size < MAX_PENDING) stats.set(k, v);
        }
      }
    }
  }

  async function flush(): Promise<void> {
    while (flushing) await flushing;
    if (devices.size === 0 && stats.size === 0) return;
    const d = devices;
    const s = stats;
    devices = new Map();
    stats = new Map();
    writing = d;
    flushing = writeBatch(d, s).finally(() => {
      flushing = null;
      writing = new Map();
    });
    await flushing;
  }

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  function add(into: StatsDelta, d: StatsDelta): void {
    into.interactions += d.interactions;
    into.unapproved += d.unapproved;
    into.dlp += d.dlp;
    into.policy += d.policy;
  }

  return {
    record(orgId: string, deviceId: string, set: DeviceFacts, deltas: readonly StatsDelta[]): void {
      const cur = devices.get(deviceId);
      devices.set(deviceId, { orgId, set: { ...cur?.set, ...set } });
      for (const delta of deltas) {
        const key = `${orgId}|${delta.sourceId}|${delta.hour}|${delta.domain}`;
        const have = stats.get(key);
        if (have) add(have, delta);
        else if (stats.size < MAX_PENDING) stats.set(key, { ...delta, orgId });
      }
    },
    flush,
    /** The facts of a device recorded but not written yet (undefined: the database has the latest). */
    pending(deviceId: string): DeviceFacts | undefined {
      const cur = devices.get(deviceId)?.set;
      const old = writing.get(deviceId)?.set;
      return cur || old ? { ...old, ...cur } : undefined;
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type HeartbeatRecorder = ReturnType<typeof createHeartbeatRecorder>;
