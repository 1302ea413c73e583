export { detectionRoutes } from './detection.routes.js';
export {
  createDetectionService,
  detectionEventData,
  detectionSettingsOf,
  redactPreview,
} from './detection.service.js';
export type { DetectionService, DetectionSettings, RequestInfo } from './detection.service.js';
