export { detectionRoutes } from './detection.routes.js';
