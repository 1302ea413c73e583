import type { EndpointConfig } from '../shared/policy.js';

// Everything the service worker keeps lives in chrome.storage.local: MV3 stops the worker when idle, so
// nothing may live only in a variable. Writes go through one queue so concurrent events never lose one.

export interface QueuedItem {
  id: string;
  path:
    | '/api/v1/endpoint/alert'
    | '/api/v1/endpoint/log'
    | '/api/v1/endpoint/shadow-ai/report'
    | '/api/v1/eps/proof';
  body: unknown;
  attempts: number;
  nextAt: number;
  /**
   * The organization the device was enrolled in when the item was queued (absent before enrollment). An
   * item goes only to that organization: after unenrolling and enrolling elsewhere it waits, and reaches
   * its own organization if the device enrolls there again (or is dropped as the oldest when the queue is
   * full).
   */
  org?: string;
}

export interface RadarHit {
  domain: string;
  signals: string[];
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export interface State {
  serverUrl?: string;
  deviceId?: string;
  deviceToken?: string;
  organizationId?: string;
  config?: EndpointConfig;
  etag?: string;
  configVersion?: number;
  heartbeatIntervalSeconds?: number;
  lastSync?: string;
  lastError?: string;
  forceMode?: boolean;
  stats?: { interactions: Record<string, number>; blocked: Record<string, number> };
  /**
   * The organization of the last enrollment, kept when the device unenrolls: the counters not yet sent
   * belong to it, and enrolling in another one starts them afresh.
   */
  enrolledOrg?: string;
  queue?: QueuedItem[];
  dropped?: number;
  /** Queued items the server refused as too large even alone (413), dropped (docs/extension.md, "Uploads"). */
  tooLarge?: number;
  radar?: Record<string, RadarHit>;
  disabledSites?: string[];
}

let chain: Promise<unknown> = Promise.resolve();

export async function read(): Promise<State> {
  return (await chrome.storage.local.get(null)) as State;
}

/** Read-modify-write under one lock; `fn` returns the fields to set (undefined removes a field). */
export function update(fn: (s: State) => Partial<State> | Promise<Partial<State>>): Promise<State> {
  const run = chain.then(async () => {
    const s = await read();
    const patch = await fn(s);
    const set: Record<string, unknown> = {};
    const remove: string[] = [];
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) remove.push(k);
      else set[k] = v;
    }
    if (Object.keys(set).length > 0) await chrome.storage.local.set(set);
    if (remove.length > 0) await chrome.storage.local.remove(remove);
    return { ...s, ...patch } as State;
  });
  chain = run.catch(() => undefined);
  return run;
}
