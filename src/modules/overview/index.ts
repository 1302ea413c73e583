// Public surface of the overview module: the dashboard's aggregated read of the stored events.
export { createOverviewRepo } from './overview.repo.js';
export { createOverviewService, HIGH_SEVERITY_TYPES, type OverviewService } from './overview.service.js';
export { overviewRoutes } from './overview.routes.js';
