import { createHmac } from 'node:crypto';
import type { Outbound } from '../../../platform/net/index.js';
import type { SiemEvent, Sink, SinkResult } from '../formats/types.js';
import {
  chunkBySize,
  mergeResults,
  resultFromError,
  resultFromStatus,
  sendSplittingOn413,
} from './http-result.js';

export interface SiemWebhookConfig {
  url: string;
  /** When set, requests carry X-Service-Signature/X-Service-Timestamp like event webhooks. */
  secret?: string | undefined;
  /** Extra static headers, e.g. a collector's own token. */
  headers?: Record<string, string> | undefined;
  /** Events per request (default 100). */
  batchSize?: number | undefined;
}

const RESERVED = new Set([
  'content-type',
  'content-length',
  'host',
  'x-service-signature',
  'x-service-timestamp',
]);

/**
 * Custom webhook target: a JSON POST `{"events":[SiemEvent,…]}`. The signature mirrors the event webhook
 * scheme (hex HMAC-SHA256 of "<ts>.<raw body>") so one verifier serves both.
 */
export function createSiemWebhookSink(
  cfg: SiemWebhookConfig,
  outbound: Outbound,
  now: () => number = Date.now,
): Sink {
  const batchSize = Math.max(1, Math.min(cfg.batchSize ?? 100, 1000));
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(cfg.headers ?? {})) if (!RESERVED.has(k.toLowerCase())) extra[k] = v;

  const sendOnce = async (batch: readonly SiemEvent[]): Promise<SinkResult> => {
    const body = JSON.stringify({ events: batch });
    const headers: Record<string, string> = { ...extra, 'content-type': 'application/json' };
    if (cfg.secret) {
      const ts = Math.floor(now() / 1000);
      const mac = createHmac('sha256', Buffer.from(cfg.secret, 'utf8')).update(`${ts}.${body}`, 'utf8');
      headers['x-service-timestamp'] = String(ts);
      headers['x-service-signature'] = `sha256=${mac.digest('hex')}`;
    }
    try {
      return resultFromStatus(await outbound.request(cfg.url, { method: 'POST', headers, body }));
    } catch (err) {
      return resultFromError(err);
    }
  };

  return {
    platform: 'WEBHOOK',
    async send(events) {
      const parts: [SiemEvent[], SinkResult][] = [];
      for (const c of chunkBySize(events, () => 1, Infinity, batchSize)) {
        parts.push([c, await sendSplittingOn413(c, sendOnce)]);
      }
      return mergeResults(parts);
    },
    async close() {},
  };
}
