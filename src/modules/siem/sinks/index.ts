export { createSink, type SinkDeps, type SinkIntegration } from './create-sink.js';
export { effectiveEventTypes, type ForwardingRules, shouldForward } from './filter.js';
export { cloudIdToUrl } from './bulk.js';
export { datadogIntakeUrl } from './datadog.js';
export { hecEventUrl } from './splunk.js';
export { type SiemWebhookConfig, webhookHeadersProblem } from './webhook.js';
export type {
  SiemCategory,
  SiemEvent,
  SiemPlatform,
  SiemSeverity,
  Sink,
  SinkRejection,
  SinkResult,
} from '../formats/types.js';
export { SIEM_CATEGORIES, SIEM_PLATFORMS, SIEM_SEVERITIES } from '../formats/types.js';
export { type SiemIntegrationBody, toSinkIntegration } from './normalize.js';
