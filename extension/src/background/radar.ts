import { DEFAULT_CONFIG, knownAiHosts } from '../shared/policy.js';
import { headerSignals, isChatBody, MIN_SIGNALS, siteOf } from '../shared/radar-signals.js';
import { hostMatches } from '../shared/sites.js';
import { enqueue } from './queue.js';
import { read, update } from './store.js';

// Shadow-AI radar: webRequest observers (never blocking) collect signals per request; a site outside the
// catalog with enough signals is counted, and the counts go to the server in one batch per heartbeat.
// Only the site name and the signal names leave the device: no URL path, no body, no header value.

const bodies = new Map<string, boolean>();
const MAX_REPORT_ITEMS = 200;

async function isKnown(host: string): Promise<boolean> {
  const s = await read();
  if (s.serverUrl && new URL(s.serverUrl).hostname === host) return true;
  // before the first config: the built-in sites and the catalog shipped with the extension
  return knownAiHosts(s.config ?? DEFAULT_CONFIG).some((h) => hostMatches(host, h));
}

function decode(details: chrome.webRequest.OnBeforeRequestDetails): string {
  const raw = details.requestBody?.raw;
  if (!raw) return '';
  const dec = new TextDecoder();
  return raw
    .map((r: { bytes?: ArrayBuffer }) => (r.bytes ? dec.decode(r.bytes, { stream: true }) : ''))
    .join('');
}

export function startRadar(): void {
  const filter = {
    urls: ['http://*/*', 'https://*/*'],
    types: ['xmlhttprequest', 'other'] as chrome.webRequest.ResourceType[],
  };
  chrome.webRequest.onBeforeRequest.addListener(
    (d) => {
      if (d.method === 'POST' && !d.initiator?.startsWith('chrome-extension:') && isChatBody(decode(d)))
        bodies.set(d.requestId, true);
      return undefined;
    },
    filter,
    ['requestBody'],
  );
  chrome.webRequest.onHeadersReceived.addListener(
    (d) => {
      const chat = bodies.get(d.requestId) === true;
      bodies.delete(d.requestId);
      if (d.initiator?.startsWith('chrome-extension:') || d.tabId < 0) return undefined;
      const signals = headerSignals(d.responseHeaders ?? []);
      if (chat) signals.push('chat_pattern');
      if (signals.length >= MIN_SIGNALS) void record(new URL(d.url).hostname, signals);
      return undefined;
    },
    filter,
    ['responseHeaders'],
  );
}

async function record(host: string, signals: string[]): Promise<void> {
  if (await isKnown(host)) return;
  const domain = siteOf(host);
  const now = new Date().toISOString();
  await update((s) => {
    const radar = { ...(s.radar ?? {}) };
    const hit = radar[domain];
    radar[domain] = hit
      ? {
          ...hit,
          signals: [...new Set([...hit.signals, ...signals])].sort(),
          count: hit.count + 1,
          lastSeen: now,
        }
      : { domain, signals: [...new Set(signals)].sort(), count: 1, firstSeen: now, lastSeen: now };
    return { radar };
  });
}

/** Moves the counted sites into the upload queue as one report batch. */
export async function queueRadarReport(): Promise<number> {
  let batch: Array<{
    domain: string;
    signals: string[];
    count: number;
    firstSeen: string;
    lastSeen: string;
  }> = [];
  await update((s) => {
    batch = Object.values(s.radar ?? {});
    return batch.length > 0 ? { radar: {} } : {};
  });
  if (batch.length === 0) return 0;
  // The server takes at most 200 detections per report; each report has its own id, so a retried upload
  // is applied once.
  for (let i = 0; i < batch.length; i += MAX_REPORT_ITEMS) {
    await enqueue('/api/v1/endpoint/shadow-ai/report', {
      reportId: crypto.randomUUID(),
      detections: batch.slice(i, i + MAX_REPORT_ITEMS).map((b) => ({
        domain: b.domain,
        signals: b.signals,
        count: b.count,
        firstSeen: b.firstSeen,
        lastSeen: b.lastSeen,
      })),
    });
  }
  return batch.length;
}
