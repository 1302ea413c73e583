import { effectiveEventTypes, type ForwardingRules } from './filter.js';
import type { SinkIntegration } from './create-sink.js';
import type { SiemPlatform } from '../formats/types.js';

/** A validated create body of any shape (see siem.schemas.ts). */
export interface SiemIntegrationBody {
  platform?: string;
  type?: string;
  config?: object;
  credentials?: object;
  endpoint?: string;
  eventTypes?: string[];
  minSeverity?: string;
  forwardDetections?: boolean;
  forwardDlp?: boolean;
}

/**
 * Folds the two spec shapes (`platform` + config, or `type` + credentials + endpoint) into what createSink and
 * shouldForward take, with the integration's effective eventTypes (effectiveEventTypes).
 */
export function toSinkIntegration(body: SiemIntegrationBody): {
  integration: SinkIntegration;
  rules: ForwardingRules & { eventTypes: string[] };
} {
  const platform = (body.platform ?? body.type) as SiemPlatform | undefined;
  if (platform === undefined) throw new TypeError('platform or type is required');
  return {
    integration: {
      platform,
      config: body.config ?? {},
      ...(body.credentials === undefined ? {} : { credentials: body.credentials }),
      ...(body.endpoint === undefined ? {} : { endpoint: body.endpoint }),
    },
    rules: {
      eventTypes: effectiveEventTypes(platform, body),
      minSeverity: body.minSeverity,
      forwardDetections: body.forwardDetections,
      forwardDlp: body.forwardDlp,
    },
  };
}
