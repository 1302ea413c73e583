import type { SiemSeverity } from './types.js';

/** Order used by minSeverity filtering; "INFO" in user input reads as the lowest level. */
export const SEVERITY_RANK: Record<SiemSeverity, number> = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };

/** ECS event.severity and risk scores, on Elastic Security's default scale. */
export const ECS_SEVERITY: Record<SiemSeverity, number> = { LOW: 21, MEDIUM: 47, HIGH: 73, CRITICAL: 99 };

/** CEF Severity 0–10 (0–3 Low, 4–6 Medium, 7–8 High, 9–10 Very-High). */
export const CEF_SEVERITY: Record<SiemSeverity, number> = { LOW: 3, MEDIUM: 5, HIGH: 8, CRITICAL: 10 };

/** Syslog severity code: notice, warning, error, critical. */
export const SYSLOG_SEVERITY: Record<SiemSeverity, number> = { LOW: 5, MEDIUM: 4, HIGH: 3, CRITICAL: 2 };

/** IDMEF Impact@severity has no "critical"; CRITICAL maps to high. */
export const IDMEF_SEVERITY: Record<SiemSeverity, 'low' | 'medium' | 'high'> = {
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
  CRITICAL: 'high',
};

/** Datadog log status. */
export const DATADOG_STATUS: Record<SiemSeverity, string> = {
  LOW: 'notice',
  MEDIUM: 'warn',
  HIGH: 'error',
  CRITICAL: 'critical',
};
