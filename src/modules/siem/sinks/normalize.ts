import type { ForwardingRules } from './filter.js';
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
 * shouldForward take. The reseller shapes have no eventTypes: their forwardDetections/forwardDlp flags apply.
 */
export function toSinkIntegration(body: SiemIntegrationBody): {
  integration: SinkIntegration;
  rules: ForwardingRules;
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
      eventTypes: body.eventTypes,
      minSeverity: body.minSeverity,
      forwardDetections: body.forwardDetections,
      forwardDlp: body.forwardDlp,
    },
  };
}
