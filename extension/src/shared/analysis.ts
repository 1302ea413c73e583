import { analyze } from '../../../src/engines/detection/index.js';
import { detectEntities, type Entity } from '../../../src/engines/dlp/index.js';
import { riskScore } from '../../../src/engines/risk/index.js';

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
