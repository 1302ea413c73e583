import { createHash } from 'node:crypto';
import type { Outbound } from '../../../platform/net/index.js';
import { bulkBody, ecsIndexTemplate, parseBulkResponse } from '../formats/ecs.js';
import type { SiemEvent, SiemPlatform, Sink, SinkResult } from '../formats/types.js';
import {
  chunkBySize,
  mergeResults,
  resultFromError,
  resultFromStatus,
  sendSplittingOn413,
} from './http-result.js';

export interface BulkSinkOptions {
  platform: SiemPlatform;
  /** Cluster base URL without a trailing slash. */
  baseUrl: string;
  authorization: string;
  /** Index name, optionally with a date pattern such as "parapet-{yyyy.MM}". */
  index: string;
  pipeline?: string | undefined;
  toDoc: (ev: SiemEvent) => Record<string, unknown>;
  /** Install the spec's index template before the first bulk (needs manage_index_templates). */
  installTemplate: boolean;
}

/** Elasticsearch's default http.max_content_length is 100 MB; 5 MB requests index fastest. */
const MAX_BULK_BYTES = 5 * 1024 * 1024;

/**
 * Elasticsearch-compatible `_bulk` (Elastic, OpenSearch, Wazuh indexer). Each document is a `create` with
 * `_id` = event id, so a re-sent batch answers 409 per item and is counted as delivered, not duplicated.
 */
export function createBulkSink(opts: BulkSinkOptions, outbound: Outbound): Sink {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const bulkUrl = `${base}/_bulk${opts.pipeline ? `?pipeline=${encodeURIComponent(opts.pipeline)}` : ''}`;
  const headers = { authorization: opts.authorization };
  let templateTried = false;

  const installTemplate = async () => {
    templateTried = true;
    const name = `parapet-${createHash('sha256').update(opts.index).digest('hex').slice(0, 12)}`;
    try {
      // Best effort: an API key without template rights can still index; mappings then come from dynamic typing.
      await outbound.request(`${base}/_index_template/${name}`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(ecsIndexTemplate(opts.index)),
      });
    } catch {
      // the bulk request that follows reports connectivity problems
    }
  };

  const sendOnce = async (batch: readonly SiemEvent[]): Promise<SinkResult> => {
    try {
      const res = await outbound.request(bulkUrl, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-ndjson' },
        body: bulkBody(batch, opts.index, opts.toDoc),
      });
      const base = resultFromStatus(res);
      if (!base.ok) return base;
      const items = parseBulkResponse(
        res.body,
        batch.map((e) => e.id),
      );
      if (items === null)
        return {
          ok: false,
          retryable: true,
          reason: 'transient',
          status: res.status,
          error: 'not a bulk answer',
        };
      const failed = items.filter((i) => !i.ok);
      if (failed.length === 0) return { ok: true, retryable: false, status: res.status };
      return {
        ok: false,
        status: res.status,
        retryable: failed.some((f) => f.retryable),
        reason: failed.some((f) => f.retryable) ? 'transient' : 'permanent',
        error: failed[0]?.error ?? 'bulk item failed',
        rejected: failed.map((f) => ({
          id: f.id,
          retryable: f.retryable,
          error: f.error ?? `status ${f.status}`,
        })),
      };
    } catch (err) {
      return resultFromError(err);
    }
  };

  return {
    platform: opts.platform,
    async send(events) {
      if (events.length === 0) return { ok: true, retryable: false };
      if (opts.installTemplate && !templateTried) await installTemplate();
      const chunks = chunkBySize(events, (e) => JSON.stringify(e.data).length + 1200, MAX_BULK_BYTES);
      const parts: [SiemEvent[], SinkResult][] = [];
      for (const c of chunks) parts.push([c, await sendSplittingOn413(c, sendOnce)]);
      return mergeResults(parts);
    },
    async close() {},
  };
}

/**
 * Elastic Cloud id: "<label>:<base64 of host[:port]$es-uuid$kibana-uuid>" → https://<es-uuid>.<host>[:port].
 * Everything before the first colon is a display label.
 */
export function cloudIdToUrl(cloudId: string): string {
  const colon = cloudId.indexOf(':');
  const decoded = Buffer.from(colon >= 0 ? cloudId.slice(colon + 1) : cloudId, 'base64').toString('utf8');
  const [hostPort, esId] = decoded.split('$');
  if (!hostPort || !esId) throw new RangeError('cloudId is not a valid Elastic Cloud id');
  const [host, port] = hostPort.split(':');
  return `https://${esId}.${host}${port && port !== '443' ? `:${port}` : ''}`;
}

export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
