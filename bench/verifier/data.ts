import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDataDir } from '../../eval/shared-data.js';

export interface Row {
  claim: string;
  sources: string[];
  label: 'supported' | 'contradicted' | 'unsupported';
}

export function readRows(file: string): Row[] {
  return readFileSync(join(sharedDataDir('hallucination'), file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

export const DATA_FILES = [
  'climate_fever_claims.jsonl',
  'climate_fever_evidence_pairs.jsonl',
  'fever_dev_derived_unsupported.jsonl',
  'fever_dev_sample.jsonl',
  'fever_symmetric_v0.2.jsonl',
  'scifact_rationales.jsonl',
  'vitaminc_sample.jsonl',
] as const;

/** Deterministic shuffle (mulberry32), so every run indexes and asks the same things. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every distinct evidence sentence of the shared hallucination files (real encyclopaedic/scientific prose). */
export function allSentences(): string[] {
  const seen = new Set<string>();
  for (const f of DATA_FILES)
    for (const r of readRows(f))
      for (const s of r.sources) {
        const t = s.trim();
        if (t.length >= 40 && /[.!?]$/.test(t)) seen.add(t);
      }
  return [...seen];
}

/**
 * Paragraphs of 301–1,100 characters (mostly 320–560) made of the given sentences: each becomes one passage
 * (toPassages joins only what stays under 600). Shared by the bench and the verdict comparison.
 */
export function benchParagraphs(sentences: string[], n: number): string[] {
  const out: string[] = [];
  let i = 0;
  let round = 0;
  while (out.length < n) {
    let p = '';
    while (p.length < 320) {
      const s = sentences[i++ % sentences.length]!;
      if (i % sentences.length === 0) round++;
      // Over 300 characters each, so that toPassages never joins two paragraphs into one passage.
      if (p.length + s.length > 560 && p.length > 300) break;
      p = p ? `${p} ${s}` : s;
    }
    // Later rounds combine sentences differently and say which round, so paragraphs stay distinct.
    out.push(round > 0 ? `Part ${round}. ${p}` : p);
  }
  return out;
}

/** Answers of about 2 KB made of indexed sentences, every third one altered (a number moved, or a year added). */
export function benchAnswers(sentences: string[], count: number): string[] {
  const answers: string[] = [];
  const pool = shuffled(sentences.slice(0, Math.min(sentences.length, 3_000)), 11);
  for (let a = 0, k = 0; a < count; a++) {
    let text = '';
    while (Buffer.byteLength(text) < 2_000) {
      let s = pool[k++ % pool.length]!;
      if (k % 3 === 0)
        s = /\d/.test(s)
          ? s.replace(/\d/, (d) => String((Number(d) + 3) % 10))
          : s.replace(/\.$/, ' in 1850.');
      text = text ? `${text} ${s}` : s;
    }
    answers.push(text.slice(0, 2_200));
  }
  return answers;
}
