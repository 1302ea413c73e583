export { UNLIMITED_RATE_CEILING, createLimitsService } from './limits.service.js';
export type { LimitsService, QuotaEventFn, UsageStats } from './limits.service.js';
export {
  createRateWindows,
  type RateState,
  type RateWindows,
  rateLimitHeaders,
  rateLimitedError,
} from './rate-windows.js';
export { quotaPeriod } from './period.js';
export type { QuotaPeriod } from './period.js';
