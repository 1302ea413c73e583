import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Outbound } from '../../../platform/net/index.js';
import { DATADOG_MAX_ENTRIES, DATADOG_MAX_PAYLOAD_BYTES, datadogEntry } from '../formats/datadog.js';
import type { SiemEvent, Sink, SinkResult } from '../formats/types.js';
import {
  chunkBySize,
  mergeResults,
  resultFromError,
  resultFromStatus,
  sendSplittingOn413,
} from './http-result.js';

const gzipAsync = promisify(gzip);

export interface DatadogConfig {
  apiKey: string;
  site?: string | undefined;
  service?: string | undefined;
  env?: string | undefined;
  tags?: string[] | undefined;
}

export function datadogIntakeUrl(site: string): string {
  const s = site.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return `https://http-intake.logs.${s}/api/v2/logs`;
}

/** Datadog logs intake v2: gzip JSON arrays of at most 1000 entries and 5 MB; success is 202. */
export function createDatadogSink(
  cfg: DatadogConfig,
  outbound: Outbound,
  host: string,
  urlOverride?: string | undefined,
): Sink {
  const url = urlOverride ?? datadogIntakeUrl(cfg.site ?? 'datadoghq.com');
  const opts = { service: cfg.service || 'parapet', env: cfg.env, tags: cfg.tags, hostname: host };

  const sendOnce = async (batch: readonly SiemEvent[]): Promise<SinkResult> => {
    const json = `[${batch.map((ev) => JSON.stringify(datadogEntry(ev, opts))).join(',')}]`;
    try {
      const res = await outbound.request(url, {
        method: 'POST',
        headers: {
          'dd-api-key': cfg.apiKey,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
        body: await gzipAsync(json),
      });
      return resultFromStatus(res);
    } catch (err) {
      return resultFromError(err);
    }
  };

  return {
    platform: 'DATADOG',
    async send(events) {
      const size = (e: SiemEvent) => JSON.stringify(e.data).length + 700;
      const chunks = chunkBySize(events, size, DATADOG_MAX_PAYLOAD_BYTES * 0.9, DATADOG_MAX_ENTRIES);
      const parts: [SiemEvent[], SinkResult][] = [];
      for (const c of chunks) parts.push([c, await sendSplittingOn413(c, sendOnce)]);
      return mergeResults(parts);
    },
    async close() {},
  };
}
