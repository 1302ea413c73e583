import { normalizeHost, targetHostProblem, targetUrlProblem } from '../../platform/net/index.js';
import { cloudIdToUrl, datadogIntakeUrl, type SinkIntegration } from './sinks/index.js';

/**
 * Where an integration would send events, checked by the outbound policy of every user-supplied target
 * before it is stored. Every SIEM request carries a credential (HEC token, API key, basic auth) or the
 * security events themselves, so https is required (plain http only to loopback in development). Syslog
 * names a host and port rather than a URL; its host gets the same host rules.
 */
export function siemTargetProblem(integration: SinkIntegration, allowPrivate: boolean): string | null {
  const cfg = integration.config as Record<string, unknown>;
  const url = (field: string, value: unknown, extraSchemes?: string[]) =>
    targetUrlProblem(value, { kind: 'siem', field, allowPrivate, ...(extraSchemes ? { extraSchemes } : {}) });
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

  if (integration.endpoint !== undefined) {
    const problem = url(
      'endpoint',
      integration.endpoint,
      integration.platform === 'PRELUDE' ? ['prelude:'] : [],
    );
    if (problem !== null) return problem;
  }
  for (const field of ['hecUrl', 'url'] as const) {
    if (cfg[field] !== undefined) {
      const problem = url(`config.${field}`, cfg[field]);
      if (problem !== null) return problem;
    }
  }
  const cloudId = str(cfg['cloudId']);
  if (cloudId !== undefined) {
    let derived: string;
    try {
      derived = cloudIdToUrl(cloudId);
    } catch {
      return "The field 'config.cloudId' is not an Elastic Cloud id.";
    }
    const problem = url('config.cloudId', derived);
    if (problem !== null) return problem;
  }
  if (integration.platform === 'DATADOG' && integration.endpoint === undefined) {
    const problem = url('config.site', datadogIntakeUrl(str(cfg['site']) ?? 'datadoghq.com'));
    if (problem !== null) return problem;
  }
  if (integration.platform === 'SYSLOG') {
    const host = str(cfg['host']);
    const problem = targetHostProblem(normalizeHost(host ?? ''), { allowPrivate });
    if (problem !== null) return `The field 'config.host' ${problem}.`;
  }
  return null;
}
