import { canonicalType } from '../dlp/entity-types.js';
import { DEFAULT_WEIGHT, RISK_WEIGHTS } from './weights.js';

export { RISK_WEIGHTS } from './weights.js';
export { DEFAULT_WARN_BEFORE_SUBMIT } from './warn-before-submit.js';
export { RISK_SEVERITY_FLOORS, type RiskSeverity, severityOf } from './severity.js';

export interface RiskBreakdown {
  /** distinct types found, each with its weight and how many times it occurred */
  types: Array<{ type: string; weight: number; count: number }>;
  /** sum of the distinct types' weights, before the multiplier */
  base: number;
  distinctTypes: number;
  multiplier: number;
  /** base × multiplier before the cap at 100 */
  uncapped: number;
}

export function normaliseRiskType(type: string): string {
  return canonicalType(type);
}

export function multiplierFor(distinctTypes: number): number {
  if (distinctTypes >= 3) return 2;
  if (distinctTypes === 2) return 1.5;
  return 1;
}

/**
 * Proof risk score 0-100. Each distinct type counts its weight once (repeats of a type do not add: ten
 * e-mail addresses are not riskier than a card number); the weights of the distinct types are summed, the
 * sum is multiplied by the cross-reference multiplier, rounded and capped at 100. See README.md.
 */
export function riskScore(types: string[]): { score: number; breakdown: RiskBreakdown } {
  const counts = new Map<string, number>();
  for (const t of types) {
    const type = normaliseRiskType(t);
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  const rows = [...counts.entries()]
    .map(([type, count]) => ({ type, weight: RISK_WEIGHTS[type] ?? DEFAULT_WEIGHT, count }))
    .sort((a, b) => b.weight - a.weight || a.type.localeCompare(b.type));
  const base = rows.reduce((sum, r) => sum + r.weight, 0);
  const multiplier = multiplierFor(rows.length);
  const uncapped = base * multiplier;
  return {
    score: Math.min(100, Math.round(uncapped)),
    breakdown: { types: rows, base, distinctTypes: rows.length, multiplier, uncapped },
  };
}

/**
 * The finding of the riskiest type (the highest weight; at equal weight the type name first in order, as
 * `riskScore` ranks them): what names an event or alert that carries several types (an IBAN before an
 * e-mail address, whatever was found first). Undefined when there is none.
 */
export function riskiestFinding<T extends { type: string }>(
  findings: readonly T[],
  /** The findings' riskScore when the caller has it already (a DLP event scores them too). */
  scored: { breakdown: RiskBreakdown } = riskScore(findings.map((f) => f.type)),
): T | undefined {
  const top = scored.breakdown.types[0];
  return top === undefined ? undefined : findings.find((f) => normaliseRiskType(f.type) === top.type);
}
