/**
 * Plans, products and plan-gated features in one table, so limits, entitlements and event gating read the
 * same facts. Figures are the spec's Limits table. docs/plans.md explains each row.
 */
export const PLANS = ['free', 'pro', 'business', 'enterprise', 'demo'] as const;
export type Plan = (typeof PLANS)[number];

export const PRODUCTS = ['detection', 'tokenization', 'chat', 'netproxy', 'hallucination'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface PlanLimits {
  rank: number;
  /** null means unlimited. */
  perMinute: number | null;
  perMonth: number | null;
  /** Detected shadow-AI services shown (and acted on); null: all. Beyond it they are stored but hidden. */
  shadowAiServices: number | null;
  /** Days after the organization's creation when the plan stops granting access; null: never. */
  expiresAfterDays: number | null;
}

/** Length of the DEMO plan (docs/plans.md). */
export const DEMO_DAYS = 30;

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { rank: 0, perMinute: 10, perMonth: 1_000, shadowAiServices: 10, expiresAfterDays: null },
  pro: { rank: 1, perMinute: 60, perMonth: 50_000, shadowAiServices: null, expiresAfterDays: null },
  business: { rank: 2, perMinute: 300, perMonth: 500_000, shadowAiServices: null, expiresAfterDays: null },
  enterprise: { rank: 3, perMinute: null, perMonth: null, shadowAiServices: null, expiresAfterDays: null },
  // A trial: every Business feature (endpoint, shadow AI, proofs, SIEM) at Free's volumes, for 30 days.
  demo: { rank: 2, perMinute: 10, perMonth: 1_000, shadowAiServices: 25, expiresAfterDays: DEMO_DAYS },
};

/** When an organization's plan stops granting access (a DEMO 30 days after creation), or null. */
export function planExpiresAt(org: { plan: Plan; createdAt: string }): Date | null {
  const days = PLAN_LIMITS[org.plan].expiresAfterDays;
  return days === null ? null : new Date(new Date(org.createdAt).getTime() + days * 86_400_000);
}

/** Features above the Free plan and the lowest plan that has each. */
export const FEATURE_MIN_PLAN = {
  dlp_events: 'pro',
  user_events: 'pro',
  shadow_ai: 'pro',
  endpoint: 'business',
  siem: 'business',
} as const satisfies Record<string, Plan>;
export type Feature = keyof typeof FEATURE_MIN_PLAN;

export function isPlan(v: string): v is Plan {
  return (PLANS as readonly string[]).includes(v);
}

export function isProduct(v: string): v is Product {
  return (PRODUCTS as readonly string[]).includes(v);
}

export function planHasFeature(plan: Plan, feature: Feature): boolean {
  return PLAN_LIMITS[plan].rank >= PLAN_LIMITS[FEATURE_MIN_PLAN[feature]].rank;
}

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: string): v is Role {
  return (ROLES as readonly string[]).includes(v);
}
