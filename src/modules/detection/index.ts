export { detectionRoutes } from './detection.routes.js';
export {
  createDetectionService,
  detectionEventData,
  detectionOptionsFor,
  detectionSettingsOf,
  publishDetection,
} from './detection.service.js';
export type {
  DetectionOrigin,
  DetectionPublish,
  DetectionService,
  DetectionSettings,
  RequestInfo,
} from './detection.service.js';
