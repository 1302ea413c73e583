import { analyze } from '../../../src/engines/detection/index.js';
import { detectEntities, type Entity } from '../../../src/engines/dlp/index.js';
import {
  type RiskSeverity,
  riskiestFinding,
  riskScore,
  severityOf,
} from '../../../src/engines/risk/index.js';

// The DLP bar's reading of a prompt: the same engines as the server, run on the device.

export interface PromptAnalysis {
  entities: Entity[];
  counts: Array<{ type: string; count: number }>;
  risk: number;
  multiplier: number;
}

export function analyzePrompt(text: string): PromptAnalysis {
  const entities = detectEntities(text);
  const { score, breakdown } = riskScore(entities.map((e) => e.type));
  return {
    entities,
    counts: breakdown.types.map((t) => ({ type: t.type, count: t.count })),
    risk: score,
    multiplier: breakdown.multiplier,
  };
}

export interface InjectionCheck {
  injection: boolean;
  score: number;
  severity: string;
  categories: string[];
}

export function checkInjection(text: string): InjectionCheck {
  const r = analyze(text);
  return { injection: !r.safe, score: r.score, severity: r.severity, categories: r.categories };
}

/** A preview that keeps no value: each entity becomes [TYPE]. */
export function redactedPreview(text: string, entities: Entity[], max = 200): string {
  let out = '';
  let cursor = 0;
  for (const e of entities) {
    out += text.slice(cursor, e.start) + `[${e.type}]`;
    cursor = e.end;
  }
  out += text.slice(cursor);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/**
 * What an alert says of its findings: the riskiest type and its data domain (an IBAN before an e-mail
 * address, whatever was found first; the server names its own DLP events the same way), every type
 * found, riskiest first, so dashboards, reports, SIEMs and webhooks see the IBAN and the phone number too,
 * and the severity of their risk score by the server's own levels (severityOf of the risk engine: a device
 * graded 60 as its HIGH and never said CRITICAL, while the server's events say HIGH from 50 and CRITICAL
 * from 75). Undefined when nothing was found.
 */
export function alertFindings(
  entities: Entity[],
): { type: string; dlpDomain: string; types: string[]; severity: RiskSeverity } | undefined {
  const top = riskiestFinding(entities);
  if (!top) return undefined;
  const { score, breakdown } = riskScore(entities.map((e) => e.type));
  const types = breakdown.types.map((t) => t.type);
  return { type: types[0]!, dlpDomain: top.domain, types, severity: severityOf(score) };
}

/** The DLP bar's colour for a risk score, by the same levels: high from HIGH (50) up. */
export function riskLevel(risk: number): 'high' | 'mid' | 'low' {
  const severity = severityOf(risk);
  return severity === 'CRITICAL' || severity === 'HIGH' ? 'high' : severity === 'MEDIUM' ? 'mid' : 'low';
}
