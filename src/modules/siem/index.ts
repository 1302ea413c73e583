export { createSiemForwarder, sinkFor } from './siem-forwarder.js';
export type { SiemForwarder, SiemForwarderDeps } from './siem-forwarder.js';
export { createSiemService, DEFAULT_QUEUE_LIMIT } from './siem.service.js';
export type { IntegrationStatus, IntegrationView, SiemService } from './siem.service.js';
export { siemRoutes } from './siem.routes.js';
export { siemCategory, siemSeverity, toSiemEvent } from './siem-event.js';
export * from './sinks/index.js';
