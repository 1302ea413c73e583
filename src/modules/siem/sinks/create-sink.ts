import { hostname as osHostname } from 'node:os';
import type { Outbound } from '../../../platform/net/index.js';
import { ecsDocument } from '../formats/ecs.js';
import { summary } from '../formats/event-fields.js';
import type { SyslogFormat } from '../formats/syslog.js';
import type { SiemEvent, SiemPlatform, Sink } from '../formats/types.js';
import { basicAuth, cloudIdToUrl, createBulkSink } from './bulk.js';
import { createDatadogSink } from './datadog.js';
import { createPreludeSink } from './prelude.js';
import { createSplunkSink } from './splunk.js';
import { createSyslogSink } from './syslog.js';
import { createSiemWebhookSink } from './webhook.js';

export interface SinkIntegration {
  platform: SiemPlatform;
  config: object;
  credentials?: object | undefined;
  /** Target URL of the PRELUDE/WAZUH/OPENSEARCH shapes; for other HTTP platforms it overrides the derived URL. */
  endpoint?: string | undefined;
}

export interface SinkDeps {
  outbound: Outbound;
  /** Kept for callers that build their own outbound; the policy inside `outbound` is what is enforced. */
  allowPrivate: boolean;
  /** Reported as host/hostname in every format; defaults to the machine name. */
  hostname?: string | undefined;
  /** Socket and bridge deadline for syslog and prelude (HTTP sinks use the outbound timeout). */
  timeoutMs?: number | undefined;
  pythonPath?: string | undefined;
}

const str = (o: Record<string, unknown>, k: string): string | undefined =>
  typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined;

function required(o: Record<string, unknown>, k: string, where: string): string {
  const v = str(o, k);
  if (v === undefined) throw new TypeError(`${where}.${k} is required`);
  return v;
}

const WAZUH_RULE_LEVEL = { LOW: 5, MEDIUM: 8, HIGH: 12, CRITICAL: 15 } as const;

/**
 * Builds the sink for one integration. Configuration errors (missing fields) throw a TypeError at
 * creation; runtime failures come back from `send` as SinkResults and never throw.
 */
export function createSink(integration: SinkIntegration, deps: SinkDeps): Sink {
  const cfg = integration.config as Record<string, unknown>;
  const creds = (integration.credentials ?? {}) as Record<string, unknown>;
  const host = deps.hostname ?? osHostname();
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const out = deps.outbound;

  switch (integration.platform) {
    case 'SPLUNK':
      return createSplunkSink(
        {
          hecUrl: integration.endpoint ?? required(cfg, 'hecUrl', 'config'),
          hecToken: required(cfg, 'hecToken', 'config'),
          index: str(cfg, 'index'),
          source: str(cfg, 'source'),
          sourcetype: str(cfg, 'sourcetype'),
        },
        out,
        host,
      );
    case 'ELASTIC': {
      const cloudId = str(cfg, 'cloudId');
      const baseUrl =
        integration.endpoint ?? (cloudId ? cloudIdToUrl(cloudId) : required(cfg, 'url', 'config'));
      const apiKey = str(cfg, 'apiKey');
      const authorization = apiKey
        ? `ApiKey ${apiKey}`
        : basicAuth(required(cfg, 'username', 'config'), required(cfg, 'password', 'config'));
      return createBulkSink(
        {
          platform: 'ELASTIC',
          baseUrl,
          authorization,
          index: str(cfg, 'index') ?? 'parapet-events-{yyyy.MM}',
          pipeline: str(cfg, 'pipeline'),
          toDoc: ecsDocument,
          installTemplate: true,
        },
        out,
      );
    }
    case 'OPENSEARCH':
      return createBulkSink(
        {
          platform: 'OPENSEARCH',
          baseUrl: integration.endpoint ?? required(cfg, 'url', 'config'),
          authorization: basicAuth(
            required(creds, 'username', 'credentials'),
            required(creds, 'password', 'credentials'),
          ),
          index: str(creds, 'index') ?? str(cfg, 'index') ?? 'parapet-events-{yyyy.MM}',
          toDoc: ecsDocument,
          installTemplate: true,
        },
        out,
      );
    case 'WAZUH': {
      const agentId = str(creds, 'agentId') ?? '000';
      const toDoc = (ev: SiemEvent) => {
        const doc = ecsDocument(ev);
        doc['agent'] = { id: agentId, name: 'parapet' };
        doc['rule'] = {
          ...((doc['rule'] as object | undefined) ?? {}),
          level: WAZUH_RULE_LEVEL[ev.severity],
          description: summary(ev),
          groups: ['parapet', ev.category.toLowerCase()],
        };
        doc['timestamp'] = ev.timestamp;
        return doc;
      };
      return createBulkSink(
        {
          platform: 'WAZUH',
          baseUrl: integration.endpoint ?? required(cfg, 'url', 'config'),
          authorization: basicAuth(
            required(creds, 'username', 'credentials'),
            required(creds, 'password', 'credentials'),
          ),
          index: str(creds, 'index') ?? 'wazuh-parapet-{yyyy.MM.dd}',
          toDoc,
          // Wazuh indexer ships its own templates; ours would fight its wazuh-* patterns.
          installTemplate: false,
        },
        out,
      );
    }
    case 'DATADOG':
      return createDatadogSink(
        {
          apiKey: required(cfg, 'apiKey', 'config'),
          site: str(cfg, 'site'),
          service: str(cfg, 'service'),
          env: str(cfg, 'env'),
          tags: Array.isArray(cfg['tags'])
            ? (cfg['tags'] as unknown[]).filter((t) => typeof t === 'string')
            : undefined,
        },
        out,
        host,
        integration.endpoint,
      );
    case 'SYSLOG': {
      const protocol = (str(cfg, 'protocol') ?? 'UDP').toUpperCase();
      if (protocol !== 'TCP' && protocol !== 'UDP' && protocol !== 'TLS')
        throw new TypeError('config.protocol must be TCP, UDP or TLS');
      const format = (str(cfg, 'format') ?? 'RFC5424').toUpperCase();
      if (format !== 'RFC5424' && format !== 'RFC3164' && format !== 'CEF')
        throw new TypeError('config.format must be RFC5424, RFC3164 or CEF');
      const port = typeof cfg['port'] === 'number' ? cfg['port'] : protocol === 'TLS' ? 6514 : 514;
      return createSyslogSink(
        {
          host: required(cfg, 'host', 'config'),
          port,
          protocol,
          facility: str(cfg, 'facility'),
          format: format as SyslogFormat,
          appName: str(cfg, 'appName'),
          tlsCert: str(cfg, 'tlsCert'),
          tlsKey: str(cfg, 'tlsKey'),
          tlsCa: str(cfg, 'tlsCa'),
        },
        { policy: out.policy, lookup: out.lookup, hostname: host, timeoutMs },
      );
    }
    case 'PRELUDE':
      return createPreludeSink(
        integration.endpoint ?? required(cfg, 'url', 'config'),
        {
          apiKey: str(creds, 'apiKey'),
          agentId: str(creds, 'agentId'),
          analyzerId: str(creds, 'analyzerId'),
        },
        { outbound: out, timeoutMs, pythonPath: deps.pythonPath },
      );
    case 'WEBHOOK': {
      const headers = cfg['headers'];
      return createSiemWebhookSink(
        {
          url: integration.endpoint ?? required(cfg, 'url', 'config'),
          secret: str(cfg, 'secret'),
          headers:
            headers !== null && typeof headers === 'object'
              ? Object.fromEntries(Object.entries(headers).filter(([, v]) => typeof v === 'string'))
              : undefined,
          batchSize: typeof cfg['batchSize'] === 'number' ? cfg['batchSize'] : undefined,
        },
        out,
      );
    }
  }
}
