export { healthRoutes } from './health.routes.js';
export type { HealthDeps } from './health.routes.js';
