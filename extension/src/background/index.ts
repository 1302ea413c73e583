import type { Status, ToBackground } from '../shared/messages.js';
import { DEFAULT_CONFIG } from '../shared/policy.js';
import { buildProof } from '../shared/proof-pdf.js';
import { ApiError, call } from './api.js';
import { allowForSession } from './dnr.js';
import { extractText } from './extractor.js';
import { fetchConfig } from './config.js';
import { enroll, enrollByHand, platformInfo, startUp } from './enroll.js';
import { enqueue, flush } from './queue.js';
import { queueRadarReport, startRadar } from './radar.js';
import { read, update } from './store.js';
import { managedConfig, managedEnrollmentSet, unenroll } from './unenroll.js';

// The service worker (an event page on Firefox): enrollment, heartbeats, policy, the upload queue, the
// shadow-AI radar, proofs, and the per-origin vaults of the content scripts (session storage: in memory,
// gone when the browser closes, never uploaded).

const VERSION = chrome.runtime.getManifest().version;
const HEARTBEAT = 'heartbeat';

/** An enrollment, then its config and first heartbeat. */
async function enrollAndSync(enrollment: Promise<void>): Promise<void> {
  await enrollment;
  await syncConfig();
  await heartbeat();
}

/** Fetches the config and, when a new one arrived, the heartbeat follows its interval. */
async function syncConfig(): Promise<void> {
  const config = await fetchConfig();
  if (config) scheduleHeartbeat(config.settings?.heartbeatIntervalSeconds ?? 60);
}

function scheduleHeartbeat(seconds: number): void {
  // Chrome runs alarms at most every 30 seconds.
  void chrome.alarms.create(HEARTBEAT, { periodInMinutes: Math.max(0.5, seconds / 60) });
}

async function heartbeat(): Promise<void> {
  const s = await read();
  if (!s.deviceToken) return;
  const stats = s.stats ?? { interactions: {}, blocked: {} };
  const { os, browser } = platformInfo();
  try {
    const res = await call('/api/v1/endpoint/heartbeat', {
      body: {
        extensionVersion: VERSION,
        browser,
        os,
        stats: {
          interactions: stats.interactions,
          blocked: {
            unapproved_service: stats.blocked['unapproved_service'] ?? 0,
            dlp_violation: stats.blocked['dlp_violation'] ?? 0,
            policy_violation: stats.blocked['policy_violation'] ?? 0,
          },
        },
      },
    });
    const hb = res.body as { configVersion: number; forceMode: boolean; heartbeatIntervalSeconds: number };
    // The counts were acknowledged: subtract what was sent, keep what arrived meanwhile.
    await update((cur) => {
      const now = cur.stats ?? { interactions: {}, blocked: {} };
      const minus = (a: Record<string, number>, b: Record<string, number>) =>
        Object.fromEntries(
          Object.entries(a)
            .map(([k, v]) => [k, v - (b[k] ?? 0)] as const)
            .filter(([, v]) => v > 0),
        );
      return {
        stats: {
          interactions: minus(now.interactions, stats.interactions),
          blocked: minus(now.blocked, stats.blocked),
        },
        lastSync: new Date().toISOString(),
        lastError: undefined,
      };
    });
    const cur = await read();
    if (hb.configVersion !== cur.configVersion || hb.forceMode !== (cur.forceMode ?? false))
      await syncConfig();
    await queueRadarReport();
    await flush();
  } catch (err) {
    await update(() => ({ lastError: err instanceof Error ? err.message : 'heartbeat failed' }));
    if (err instanceof ApiError && err.body?.reenroll) await enrollFromManagedStorage();
  }
}

let managedEnrollment: Promise<void> | null = null;

/**
 * Enrolls with the managed configuration when the device holds no token. Start-up and the managed
 * storage's change event often come together: they share one attempt, or the device would enroll twice.
 */
function enrollFromManagedStorage(): Promise<void> {
  managedEnrollment ??= enrollManaged().finally(() => {
    managedEnrollment = null;
  });
  return managedEnrollment;
}

async function enrollManaged(): Promise<void> {
  const managed = await managedConfig();
  const s = await read();
  if (s.deviceToken || !managed.serverUrl || !managed.enrollmentCode) return;
  await enrollAndSync(enroll(managed.serverUrl, managed.enrollmentCode, managed.deviceName)).catch(
    async (err) => {
      await update(() => ({ lastError: `enrollment: ${err instanceof Error ? err.message : err}` }));
    },
  );
}

async function status(): Promise<Status> {
  const s = await read();
  return {
    enrolled: Boolean(s.deviceToken),
    ...(s.serverUrl ? { serverUrl: s.serverUrl } : {}),
    ...(s.organizationId ? { organizationId: s.organizationId } : {}),
    ...(s.config?.organization?.name ? { organizationName: s.config.organization.name } : {}),
    ...(s.deviceId ? { deviceId: s.deviceId } : {}),
    configVersion: s.configVersion ?? 0,
    ...(s.lastSync ? { lastSync: s.lastSync } : {}),
    ...(s.lastError ? { lastError: s.lastError } : {}),
    queued: s.queue?.length ?? 0,
    forceMode: s.forceMode ?? false,
    enforcement: (s.config ?? DEFAULT_CONFIG).policy.enforcement,
    disabledSites: s.disabledSites ?? [],
    version: VERSION,
    unenrollAllowed: s.config?.settings?.allowUserUnenroll !== false,
    managed: await managedEnrollmentSet(),
  };
}

async function makeProof(input: Extract<ToBackground, { kind: 'proof' }>['proof']): Promise<void> {
  const s = await read();
  if (!s.deviceToken || !s.deviceId) return; // proofs belong to an enrolled device
  const timestamp = new Date().toISOString();
  const tier = String((s.config as Record<string, unknown> | undefined)?.['plan'] ?? 'business');
  const { pdf, fileHash } = await buildProof(input, {
    timestamp,
    extensionVersion: VERSION,
    tier,
    deviceId: s.deviceId,
  });
  let bin = '';
  for (let i = 0; i < pdf.length; i += 0x8000) bin += String.fromCharCode(...pdf.subarray(i, i + 0x8000));
  await enqueue('/api/v1/eps/proof', {
    pdfBase64: btoa(bin),
    metadata: {
      hash: `sha256:${fileHash}`,
      timestamp,
      platform: input.platform,
      tokenCount: input.tokens.length,
      riskScore: input.riskScore,
      epsVersion: VERSION,
      tier,
      // One type per token: the server checks tokenTypes against tokenCount and recomputes the score.
      tokenTypes: input.tokens.map((t) => t.type),
    },
  });
  await flush();
}

/** The origin of the page a message came from (Firefox gives the sender's URL where Chrome gives its origin). */
function senderOrigin(sender: chrome.runtime.MessageSender): string | undefined {
  if (sender.origin) return sender.origin;
  try {
    return sender.url ? new URL(sender.url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Queues an alert or a log with its time and starts an upload at once, not at the next heartbeat (a refused
 * paste must reach the organization as soon as the alert beside it). A burst stays batched: a flush asked
 * while one runs joins the single run that follows it, which sends every log then queued as one request.
 */
async function upload(path: '/api/v1/endpoint/alert' | '/api/v1/endpoint/log', body: object): Promise<void> {
  await enqueue(path, { ...body, occurredAt: new Date().toISOString() });
  void flush();
}

async function handle(msg: ToBackground, sender: chrome.runtime.MessageSender): Promise<unknown> {
  switch (msg.kind) {
    case 'alert':
      await upload('/api/v1/endpoint/alert', { id: crypto.randomUUID(), ...msg.alert });
      return true;
    case 'log': {
      // logging.logBlockedAttempts: false keeps refusals off the server (the alerts still go).
      const logging = ((await read()).config ?? DEFAULT_CONFIG).policy.rules.logging;
      if (
        logging?.logBlockedAttempts === false &&
        (msg.log.kind === 'blocked' || msg.log.kind === 'paste_blocked')
      )
        return false;
      await upload('/api/v1/endpoint/log', { id: crypto.randomUUID(), ...msg.log });
      return true;
    }
    case 'stat':
      await update((s) => {
        const stats = s.stats ?? { interactions: {}, blocked: {} };
        const next = { interactions: { ...stats.interactions }, blocked: { ...stats.blocked } };
        if (msg.blockedReason) next.blocked[msg.blockedReason] = (next.blocked[msg.blockedReason] ?? 0) + 1;
        else next.interactions[msg.domain] = (next.interactions[msg.domain] ?? 0) + 1;
        return { stats: next };
      });
      return true;
    case 'proof':
      await makeProof(msg.proof);
      return true;
    case 'vault-get': {
      // A site's vault holds the user's values: only that site's own content script gets it (as for
      // vault-put), never another site's or an extension page.
      if (senderOrigin(sender) !== msg.origin) return [];
      const key = `vault:${msg.origin}`;
      const v = await chrome.storage.session.get(key);
      return v[key] ?? [];
    }
    case 'vault-put':
      if (senderOrigin(sender) !== msg.origin) return false;
      await chrome.storage.session.set({ [`vault:${msg.origin}`]: msg.entries.slice(-5000) });
      return true;
    case 'enroll':
      await enrollAndSync(enrollByHand(msg.serverUrl, msg.code, msg.name));
      return status();
    case 'unenroll':
      await unenroll();
      return status();
    case 'sync':
      await syncConfig().catch(() => undefined);
      await heartbeat();
      return status();
    case 'status':
      return status();
    case 'extract':
      return extractText(msg.request);
    case 'continue-blocked':
      await allowForSession(msg.host);
      return true;
  }
}

chrome.runtime.onMessage.addListener((msg: ToBackground & { target?: string }, sender, reply) => {
  if (msg.target !== undefined) return false; // for the extractor document, not for this worker
  handle(msg, sender).then(reply, (err) =>
    reply({ error: err instanceof Error ? err.message : String(err) }),
  );
  return true;
});

chrome.alarms.onAlarm.addListener((a) => {
  if (a.name === HEARTBEAT) void heartbeat();
});

chrome.storage.onChanged.addListener((_changes, area) => {
  if (area === 'managed') void enrollFromManagedStorage();
});

async function start(): Promise<void> {
  const s = await read();
  scheduleHeartbeat(s.heartbeatIntervalSeconds ?? 60);
  await startUp(enrollFromManagedStorage);
}

chrome.runtime.onInstalled.addListener(() => void start());
chrome.runtime.onStartup.addListener(() => void start());
startRadar();
