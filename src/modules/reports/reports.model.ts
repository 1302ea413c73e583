/** The analysis report: what `/api/v1/report` returns as JSON and what the CSV and PDF are rendered from. */

export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

export interface Count {
  name: string;
  count: number;
}

export interface DayRow {
  date: string;
  detections: number;
  blocked: number;
  dlpEvents: number;
}

export interface QuotaRow {
  product: string;
  period: string;
  requests: number;
  blocked: number;
  /** The plan's monthly quota; null when unlimited. */
  limit: number | null;
  /** requests / limit in percent, one decimal; null when unlimited. */
  percent: number | null;
}

export interface ModelRow {
  provider: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Summed in integer micro-dollars, so a long period does not accumulate floating-point noise. */
  costMicroUsd: number;
}

export interface AnalysisReport {
  id: string;
  organization: { id: string; name: string; plan: string };
  period: { from: string; to: string };
  generatedAt: string;
  detections: {
    total: number;
    blocked: number;
    bySeverity: Record<(typeof SEVERITIES)[number], number>;
    byCategory: Count[];
  };
  dlp: { events: number; findings: number; blocked: number; byType: Count[]; bySeverity: Count[] };
  blockedRequests: { total: number; injection: number; personalData: number };
  top: { users: Count[]; apiKeys: Count[] };
  daily: DayRow[];
  usage: QuotaRow[];
  hallucination: { checks: number; periods: string[] };
  gateway: { requests: number; costMicroUsd: number; models: ModelRow[] };
}
