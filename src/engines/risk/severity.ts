/**
 * The severity of a proof risk score (0–100): the lowest score of each level. One definition for the
 * server's DLP events (`severity` of dlp.violation, dlp.blocked) and the browser extension's alerts and its
 * DLP bar, so that a device and the server never grade the same findings differently.
 */
export const RISK_SEVERITY_FLOORS: Readonly<{ CRITICAL: number; HIGH: number; MEDIUM: number }> =
  Object.freeze({ CRITICAL: 75, HIGH: 50, MEDIUM: 25 });

export type RiskSeverity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export function severityOf(score: number): RiskSeverity {
  if (score >= RISK_SEVERITY_FLOORS.CRITICAL) return 'CRITICAL';
  if (score >= RISK_SEVERITY_FLOORS.HIGH) return 'HIGH';
  if (score >= RISK_SEVERITY_FLOORS.MEDIUM) return 'MEDIUM';
  return 'LOW';
}
