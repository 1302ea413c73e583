/**
 * Input bounds. They keep one check within tens of milliseconds: retrieval and alignment grow with the
 * number of source sentences and claim clauses. checkClaim throws a RangeError beyond them, so callers
 * (the HTTP layer) should validate first and answer 400.
 */
export const LIMITS = {
  maxSources: 20,
  maxSourceChars: 50_000,
  maxClaimChars: 10_000,
} as const;
