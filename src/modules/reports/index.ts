export { reportsRoutes } from './reports.routes.js';
export { reportCsv, reportPdf, usd } from './reports.render.js';
export {
  createReportsService,
  resolvePeriod,
  INLINE_MAX_DAYS,
  MAX_PERIOD_DAYS,
  PERIODS,
} from './reports.service.js';
export type { ReportOrg, ReportRequest, ReportView, ReportsService, PeriodName } from './reports.service.js';
export type { AnalysisReport } from './reports.model.js';
