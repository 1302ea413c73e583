export {
  UNLIMITED_RATE_CEILING,
  createLimitsService,
  rateLimitHeaders,
  rateLimitedError,
} from './limits.service.js';
export type { LimitsService, QuotaEventFn, RateState, UsageStats } from './limits.service.js';
export { quotaPeriod } from './period.js';
export type { QuotaPeriod } from './period.js';
