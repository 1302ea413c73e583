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

/**
 * Headers the transport or our signature owns: framing and connection headers (a stored `Transfer-Encoding`
 * made every request unreadable to the receiver, a permanent failure), the body's type and the signature.
 */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'te',
  'trailer',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'host',
  'proxy-authorization',
  'proxy-connection',
  'x-service-signature',
  'x-service-timestamp',
]);

/** RFC 9110 field-name: a token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Printable ASCII, space and tab: no line break (header injection), no NUL, nothing a client re-encodes. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Why a custom header set cannot be sent, or null. Checked when an integration is stored: Node refuses a
 * line break in a header at send time, which only showed as every delivery failing (retried for ever).
 */
export function webhookHeadersProblem(headers: Record<string, string> | undefined): string | null {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(name)) {
      return "A name in 'config.headers' is not an HTTP header name (letters, digits and !#$%&'*+.^_`|~- only).";
    }
    if (RESERVED.has(name.toLowerCase())) {
      return `The header 'config.headers.${name}' is set by Parapet itself and cannot be configured.`;
    }
    if (!HEADER_VALUE.test(value)) {
      return `The field 'config.headers.${name}' may hold printable ASCII characters, spaces and tabs only (no line breaks).`;
    }
  }
  return null;
}

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
