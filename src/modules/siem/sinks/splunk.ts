import { randomUUID } from 'node:crypto';
import type { Outbound } from '../../../platform/net/index.js';
import { hecEnvelope, type HecOptions } from '../formats/splunk-hec.js';
import type { SiemEvent, Sink, SinkResult } from '../formats/types.js';
import {
  chunkBySize,
  mergeResults,
  resultFromError,
  resultFromStatus,
  sendSplittingOn413,
  snippet,
} from './http-result.js';

export interface SplunkConfig {
  hecUrl: string;
  hecToken: string;
  index?: string | undefined;
  source?: string | undefined;
  sourcetype?: string | undefined;
}

/** HEC's default body limit is about 1 MB; stay under it. */
const MAX_BATCH_BYTES = 900 * 1024;

/** Accepts a bare base URL (https://hec:8088) or a full collector path, and targets the JSON endpoint. */
export function hecEventUrl(hecUrl: string): string {
  const u = new URL(hecUrl);
  const path = u.pathname.replace(/\/+$/, '');
  if (path === '' || path === '/services/collector') u.pathname = '/services/collector/event';
  return u.toString();
}

/** HEC answers with {"text","code"}; code 6 (invalid data format) must be dead-lettered, not retried. */
function hecResult(status: number, body: string, base: SinkResult): SinkResult {
  if (base.ok) return base;
  try {
    const parsed = JSON.parse(body) as { code?: number; text?: string };
    if (parsed.code === 9) return { ...base, retryable: true, reason: 'transient' };
    if (parsed.code === 6 || parsed.code === 5 || parsed.code === 7) {
      return {
        ...base,
        retryable: false,
        reason: 'permanent',
        error: `HEC code ${parsed.code}: ${parsed.text ?? ''}`,
      };
    }
  } catch {
    // not a HEC answer: the status decides
  }
  return { ...base, error: base.error ?? `HTTP ${status}: ${snippet(body)}` };
}

export function createSplunkSink(cfg: SplunkConfig, outbound: Outbound, host: string): Sink {
  const url = hecEventUrl(cfg.hecUrl);
  const opts: HecOptions = {
    host,
    source: cfg.source || 'parapet',
    sourcetype: cfg.sourcetype || 'parapet:security',
    index: cfg.index,
  };
  // A channel lets tokens that have indexer acknowledgement enabled accept our requests.
  const channel = randomUUID();

  const sendOnce = async (batch: readonly SiemEvent[]): Promise<SinkResult> => {
    const body = batch.map((ev) => `${JSON.stringify(hecEnvelope(ev, opts))}\n`).join('');
    try {
      const res = await outbound.request(url, {
        method: 'POST',
        headers: {
          authorization: `Splunk ${cfg.hecToken}`,
          'content-type': 'application/json',
          'x-splunk-request-channel': channel,
        },
        body,
      });
      return hecResult(res.status, res.body, resultFromStatus(res));
    } catch (err) {
      return resultFromError(err);
    }
  };

  return {
    platform: 'SPLUNK',
    async send(events) {
      const chunks = chunkBySize(events, (e) => JSON.stringify(e.data).length + 600, MAX_BATCH_BYTES);
      const parts: [SiemEvent[], SinkResult][] = [];
      for (const c of chunks) parts.push([c, await sendSplittingOn413(c, sendOnce)]);
      return mergeResults(parts);
    },
    async close() {},
  };
}
