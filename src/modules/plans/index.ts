export {
  DEMO_DAYS,
  FEATURE_MIN_PLAN,
  PLAN_LIMITS,
  PLANS,
  PRODUCTS,
  ROLES,
  isPlan,
  isProduct,
  isRole,
  planExpiresAt,
  planHasFeature,
} from './plans.js';
export type { Feature, Plan, PlanLimits, Product, Role } from './plans.js';
