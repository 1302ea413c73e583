// Training of the learned signal (used by scripts/train-detection.ts and by the leave-one-source-out eval,
// which refits it without the held-out source). Pure and deterministic: a seeded shuffle, AdaGrad logistic
// regression in float64, weights quantized to int8. Not imported by the engine's index, so the browser
// bundle does not carry it.
import { combineScore, DEFAULT_THRESHOLDS, modelPoints } from '../scoring.js';
import { DIM, type TokenFeatures, windows } from './features.js';
import { dequantize, type LinearModel, maxWindowLogit } from './linear.js';

export interface TrainRow {
  tf: TokenFeatures;
  label: 0 | 1;
  /** Source name: rows are weighted per source and label, and calibration holds sources out. */
  source: string;
  /**
   * Where calibration splits sources in two, if finer than the source: the team's own material is split by
   * language, so that each half holds some of every kind of it (role-play, quoted attacks) and a language's
   * rows are scored by a model that learned that kind from the other languages.
   */
  splitKey?: string;
  lang: string;
  /** The language the engine guesses at run time (analyze.ts), which picks the warn logit; 'und' if none. */
  calLang: string;
  /** 'general' | 'document' | 'hard_negative' for benign rows (calibration keeps their false positives low). */
  kind: string;
  /**
   * False for training-only material (real documents with the team's planted sentences): a large share of
   * easy prose in a calibration group would loosen the false-positive budget of the prompts it is for.
   */
  calibrate?: boolean;
  /**
   * Near-duplicate family (e.g. one persona set-up with four different questions after it): rows of one
   * family count once together in the group caps and in calibration, so a text written once and composed
   * four times does not weigh, or bind a warn logit, four times. Absent: the row is its own family.
   */
  family?: string;
  /** The other signals' parts, so the combined score can be calibrated. */
  parts: { patternWeights: number[]; similarity: number; obfuscationPoints: number };
}

export interface TrainOptions {
  seed: number;
  epochs: number;
  learningRate: number;
  /** A (source, label) group larger than this counts as this many examples. */
  groupCap: number;
  /** False-positive ceilings the calibration aims at, below the targets to leave a margin. */
  maxFpGeneral: number;
  maxFpHard: number;
  /**
   * Return the mean of the weights over every step of the last epoch instead of the last weights: the
   * average is less bent towards the examples seen last and varies less with the order.
   */
  average: boolean;
  /**
   * Extra weight of hard negatives (benign texts that share an attack's words) after the group caps: they
   * are few beside the general prompts, and calibration is bound by them.
   */
  hardWeight: number;
  /**
   * In the second fit, a benign text also gives its most suspicious window under the first model: the
   * engine reads the worst window of a text, so that is the window a benign text must keep low (the
   * attacks' worst window is used the same way).
   */
  benignWorst: boolean;
  /**
   * Count each near-duplicate family (TrainRow.family) once in the group caps. Off: on dev it lowered the
   * headline (83.7 → 83.4; results/dev-inj-lr-7.txt); kept for comparisons.
   */
  dedup: boolean;
  /**
   * Count each near-duplicate family once in calibration's false-positive budgets: four copies of one
   * persona set-up with different questions bound the English warn logit as four false positives. The
   * families are tagged where the corpus composes them (eval/detection/own/index.ts, roleplay.ts: one
   * persona set-up with each of its questions, one clean document alone and under each task); untagged
   * rows count alone. inj-lr-7 used "same 64-character opening" instead, which also grouped different
   * texts (quoted attacks after one question) and hid false positives on hard negatives (not shipped;
   * docs/detection.md). Off: with the tagged families and round 9 (inj-lr-8) dev rose 83.3 → 83.8, but the
   * leave-one-source-out run put hard-negative FP at 4.0 % and general FP at 3.1 % (not shipped;
   * results/loso-inj-lr-8.txt).
   */
  dedupCalibration: boolean;
  /**
   * A language with fewer hard negatives of its own than this (none included) is also held to the hard
   * negatives of the languages that have enough, each moved into its scale by the difference of the two
   * languages' general-prompt warn logits (what the model does with a hard negative, relative to ordinary
   * text, is taken to carry over between languages), within the hard-negative budget. A 2 % tail of 30-odd
   * rows is one row: the team's non-English hard negatives are almost all in one source, and the
   * leave-one-source-out fold that holds it out kept about 33 per language, all easy, which set German's
   * warn logit at −0.25 (inj-lr-10); a language with fewer than 30 took the default, the strictest (French
   * in that fold). 0: off (a language with 30 or more calibrates on its own, one with fewer takes the
   * default). Tried at 100 (2 % of 100 is two rows) in inj-lr-11: dev unchanged, leave-one-source-out hard
   * negatives 4.6 → 3.1 % with French 1 → 9 of 111 and Italian recall 80.0 → 74.3 (not shipped;
   * docs/detection.md, results/loso-inj-lr-11.txt).
   */
  hardPoolBelow: number;
}

export const DEFAULT_TRAIN: TrainOptions = {
  seed: 20261125,
  epochs: 3,
  learningRate: 0.2,
  groupCap: 1200,
  maxFpGeneral: 0.007,
  maxFpHard: 0.02,
  average: false,
  hardWeight: 1,
  benignWorst: false,
  dedup: false,
  dedupCalibration: false,
  hardPoolBelow: 0,
};

/** Per row, 1 / the size of its near-duplicate family within `rows` (1 for a row without a family). */
export function familyShares(rows: { family?: string; label: number }[], on = true): Float64Array {
  const size = new Map<string, number>();
  const key = (r: { family?: string; label: number }): string | null =>
    on && r.family !== undefined ? `${r.label}|${r.family}` : null;
  for (const r of rows) {
    const k = key(r);
    if (k !== null) size.set(k, (size.get(k) ?? 0) + 1);
  }
  return Float64Array.from(rows, (r) => {
    const k = key(r);
    return k === null ? 1 : 1 / (size.get(k) as number);
  });
}

interface Example {
  row: number;
  start: number;
  end: number;
  y: number;
  weight: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Benign texts give up to this many windows each; attacks give one (the whole text, then its worst window). */
const BENIGN_WINDOWS = 6;

function examples(
  rows: TrainRow[],
  pick: (r: TrainRow, i: number) => [number, number] | null,
  benignWorst = false,
  dedup = false,
): Example[] {
  const out: Example[] = [];
  const share = familyShares(rows, dedup);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as TrainRow;
    const tokens = r.tf.offsets.length - 1;
    if (tokens === 0) continue;
    const ws = windows(tokens);
    if (r.label === 0) {
      const k = Math.min(BENIGN_WINDOWS, ws.length);
      const picked = Array.from(
        { length: k },
        (_, j) => ws[Math.floor((j * ws.length) / k)] as [number, number],
      );
      const worst = benignWorst && ws.length > 1 ? pick(r, i) : null;
      if (worst && !picked.some(([s]) => s === worst[0])) picked.push(worst);
      for (const [s, e] of picked)
        out.push({ row: i, start: s, end: e, y: 0, weight: (share[i] as number) / picked.length });
    } else {
      const w = ws.length === 1 ? (ws[0] as [number, number]) : pick(r, i);
      if (w) out.push({ row: i, start: w[0], end: w[1], y: 1, weight: share[i] as number });
    }
  }
  // Every (source, label) group weighs at most groupCap examples, and the two labels weigh the same.
  return out;
}

function balance(rows: TrainRow[], ex: Example[], cap: number, hardWeight = 1): void {
  const groupTotal = new Map<string, number>();
  const key = (e: Example): string => `${(rows[e.row] as TrainRow).source}|${e.y}`;
  for (const e of ex) groupTotal.set(key(e), (groupTotal.get(key(e)) ?? 0) + e.weight);
  for (const e of ex) {
    const total = groupTotal.get(key(e)) as number;
    e.weight *= Math.min(total, cap) / total;
    if ((rows[e.row] as TrainRow).kind === 'hard_negative') e.weight *= hardWeight;
  }
  const byLabel = [0, 0];
  for (const e of ex) byLabel[e.y] = (byLabel[e.y] as number) + e.weight;
  const all = (byLabel[0] as number) + (byLabel[1] as number);
  for (const e of ex) e.weight *= all / 2 / (byLabel[e.y] as number) / (all / ex.length);
}

function sgd(rows: TrainRow[], ex: Example[], o: TrainOptions): { weights: Float64Array; bias: number } {
  const w = new Float64Array(DIM);
  const g2 = new Float64Array(DIM);
  // Averaging over the last epoch without touching every weight at every step: with deltas d_k made at
  // step t_k (counted from the epoch's start), the mean of w over the T steps is w_T − Σ d_k·(t_k − 1) / T.
  const u = o.average ? new Float64Array(DIM) : null;
  let uBias = 0;
  let step = 0;
  let bias = 0;
  let biasG2 = 0;
  const rand = mulberry32(o.seed);
  const order = ex.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const averaging = u !== null && epoch === o.epochs - 1;
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    for (const k of order) {
      if (averaging) step++;
      const e = ex[k] as Example;
      const tf = (rows[e.row] as TrainRow).tf;
      const from = tf.offsets[e.start] as number;
      const to = tf.offsets[e.end] as number;
      if (to === from) continue;
      const x = 1 / Math.sqrt(to - from);
      let z = bias;
      for (let f = from; f < to; f++) z += (w[tf.ids[f] as number] as number) * x;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - e.y) * e.weight;
      if (g === 0) continue;
      const gx = g * x;
      for (let f = from; f < to; f++) {
        const id = tf.ids[f] as number;
        const acc = (g2[id] as number) + gx * gx;
        g2[id] = acc;
        const d = (o.learningRate * gx) / Math.sqrt(acc);
        w[id] = (w[id] as number) - d;
        if (averaging) (u as Float64Array)[id] = ((u as Float64Array)[id] as number) - d * (step - 1);
      }
      biasG2 += g * g;
      const db = (o.learningRate * g) / Math.sqrt(biasG2);
      bias -= db;
      if (averaging) uBias -= db * (step - 1);
    }
  }
  if (u && step > 0) {
    for (let i = 0; i < DIM; i++) w[i] = (w[i] as number) - (u[i] as number) / step;
    bias -= uBias / step;
  }
  return { weights: w, bias };
}

/** int8 weights with one scale (the largest weight maps to 127). */
export function quantize(w: Float64Array): { q: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i] as number));
  const scale = max > 0 ? Math.fround(max / 127) : 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++)
    q[i] = Math.max(-127, Math.min(127, Math.round((w[i] as number) / scale)));
  return { q, scale };
}

export interface FittedWeights {
  q: Int8Array;
  scale: number;
  bias: number;
}

/**
 * Two rounds: first every attack text counts whole; then each long attack is represented by its most
 * suspicious window under the first model (an injection sits in one place of a long e-mail), and the model
 * is fitted again from scratch.
 */
export function fitWeights(rows: TrainRow[], o: TrainOptions = DEFAULT_TRAIN): FittedWeights {
  const first = examples(rows, (r) => [0, r.tf.offsets.length - 1], false, o.dedup);
  balance(rows, first, o.groupCap, o.hardWeight);
  const m1 = sgd(rows, first, o);
  const probe: LinearModel = {
    weights: Float32Array.from(m1.weights),
    bias: m1.bias,
    zWarn: 0,
    zWarnByLang: {},
    version: 'probe',
  };
  const second = examples(
    rows,
    (r) => {
      const best = maxWindowLogit(probe, r.tf);
      return [best.start, best.end];
    },
    o.benignWorst,
    o.dedup,
  );
  balance(rows, second, o.groupCap, o.hardWeight);
  const m2 = sgd(rows, second, o);
  const { q, scale } = quantize(m2.weights);
  return { q, scale, bias: Math.fround(m2.bias) };
}

export function toModel(f: FittedWeights, cal: Calibration, version: string): LinearModel {
  return {
    weights: dequantize(f.q, f.scale),
    bias: f.bias,
    zWarn: cal.zWarn,
    zWarnByLang: cal.byLang,
    version,
  };
}

const LANGS = ['en', 'fr', 'de', 'it', 'es'];

interface CalGroup {
  name: string;
  /** w: the row's share of its near-duplicate family, so a family counts once in the budget. */
  members: { r: TrainRow; z: number; w: number }[];
  ceiling: number;
}

/** The groups of benign rows whose false positives calibration bounds, each with its ceiling. */
function calibrationGroups(
  rows: TrainRow[],
  logits: Float64Array,
  o: TrainOptions,
  only?: string,
): CalGroup[] {
  const benign = rows
    .map((r, i) => ({ r, z: logits[i] as number, w: 1 }))
    .filter(
      (x) => x.r.label === 0 && x.r.calibrate !== false && (only === undefined || x.r.calLang === only),
    );
  const groups: CalGroup[] = [];
  // A family's share is counted among the members of one group: a family split across languages (or
  // between hard negatives and general prompts) must weigh 1 in each group it appears in, not less.
  const group = (name: string, members: CalGroup['members'], ceiling: number): void => {
    const share = familyShares(
      members.map((x) => x.r),
      o.dedupCalibration,
    );
    groups.push({ name, members: members.map((x, i) => ({ ...x, w: share[i] as number })), ceiling });
  };
  // General prompts and documents together per language: documents are few beside the short questions,
  // and a separate group of them made calibration hinge on whichever BIPIA context was held out.
  for (const lang of LANGS) {
    const general = benign.filter((x) => x.r.calLang === lang && x.r.kind !== 'hard_negative');
    if (general.length >= 30) group(`general ${lang}`, general, o.maxFpGeneral);
  }
  const hard = benign.filter((x) => x.r.kind === 'hard_negative');
  if (hard.length >= 30) group(`hard negatives${only ? ` ${only}` : ''}`, hard, o.maxFpHard);
  return groups;
}

/**
 * A benign row the model pushes over warn. Rows the other signals flag on their own are not counted: the
 * budget is what the model adds, so a language whose patterns already trip on a hard negative or two does
 * not lose its model altogether.
 */
const flaggedAt = (x: { r: TrainRow; z: number }, zWarn: number): boolean =>
  combineScore({ ...x.r.parts, modelPoints: modelPoints(x.z, zWarn, x.r.tf.offsets.length - 1) }) >=
    DEFAULT_THRESHOLDS.warn && combineScore(x.r.parts) < DEFAULT_THRESHOLDS.warn;

function smallestZ(groups: CalGroup[]): number {
  const weight = (xs: { w: number }[]): number => xs.reduce((a, x) => a + x.w, 0);
  const ok = (z: number): boolean =>
    groups.every((g) => weight(g.members.filter((x) => flaggedAt(x, z))) <= g.ceiling * weight(g.members));
  for (let zWarn = -4; zWarn <= 12; zWarn += 0.05) if (ok(zWarn)) return Math.round(zWarn * 100) / 100;
  return 12;
}

/** Per calibration group, the smallest zWarn that keeps it under its ceiling (the largest one binds). */
export function calibrationReport(
  rows: TrainRow[],
  logits: Float64Array,
  o: TrainOptions = DEFAULT_TRAIN,
): { name: string; rows: number; zWarn: number }[] {
  const groups = [
    ...calibrationGroups(rows, logits, o),
    ...LANGS.flatMap((l) =>
      calibrationGroups(rows, logits, o, l).filter((g) => !g.name.startsWith('general')),
    ),
  ];
  return groups.map((g) => ({ name: g.name, rows: g.members.length, zWarn: smallestZ([g]) }));
}

export interface Calibration {
  /** Warn logit for a text whose language the engine does not recognise: every language's budget holds. */
  zWarn: number;
  /** Warn logit per recognised language: that language's general prompts and hard negatives hold their budget. */
  byLang: Record<string, number>;
}

/**
 * The smallest zWarn (logit at which the model alone reaches warn) whose combined score keeps false
 * positives under the ceilings, on logits of rows whose source the model did not see: once for all
 * languages together (the default) and once per language, so that a warn means the same false-positive
 * budget in each language rather than the budget of the language whose benign text looks most like attacks.
 */
export function calibrate(
  rows: TrainRow[],
  logits: Float64Array,
  o: TrainOptions = DEFAULT_TRAIN,
): Calibration {
  const zWarn = smallestZ(calibrationGroups(rows, logits, o));
  const byLang: Record<string, number> = {};
  const perLang = new Map(LANGS.map((l) => [l, calibrationGroups(rows, logits, o, l)]));
  // The general prompts' own warn logit per language: the scale the pooled hard negatives are moved by.
  const generalZ = new Map<string, number>();
  for (const [l, groups] of perLang) {
    const general = groups.find((g) => g.name.startsWith('general'));
    if (general) generalZ.set(l, smallestZ([general]));
  }
  // The hard negatives lent by the languages that have enough of their own (read before any language gets
  // its pooled group).
  const lent = [...perLang].flatMap(([l, gs]) => {
    const own = gs.find((g) => g.name.startsWith('hard'));
    return own && generalZ.has(l) && own.members.length >= o.hardPoolBelow ? own.members : [];
  });
  for (const lang of LANGS) {
    const groups = [...(perLang.get(lang) as CalGroup[])];
    const hard = groups.find((g) => g.name.startsWith('hard'));
    if (!groups.some((g) => g.name.startsWith('general'))) continue;
    const n = hard?.members.length ?? 0;
    if (n < o.hardPoolBelow) {
      const to = generalZ.get(lang) as number;
      const members = lent.map((x) => ({ ...x, z: x.z - (generalZ.get(x.r.calLang) as number) + to }));
      if (members.length)
        groups.push({ name: `hard negatives pooled into ${lang}`, members, ceiling: o.maxFpHard });
    }
    // A language without enough general prompts, or without hard negatives of its own or pooled, keeps the default.
    if (groups.some((g) => g.name.startsWith('hard'))) byLang[lang] = smallestZ(groups);
  }
  return { zWarn, byLang };
}

/** Logits of every row from a model fitted without its source: two halves of the sources, each fitted on the other. */
export function outOfSourceLogits(rows: TrainRow[], o: TrainOptions = DEFAULT_TRAIN): Float64Array {
  const keyOf = (r: TrainRow): string => r.splitKey ?? r.source;
  // Training-only sources alternate among themselves, so adding them does not move the others' halves.
  const halves = (rs: TrainRow[]): [string, number][] =>
    [...new Set(rs.map(keyOf))].sort().map((n, i) => [n, i % 2]);
  const half = new Map([
    ...halves(rows.filter((r) => r.calibrate !== false)),
    ...halves(rows.filter((r) => r.calibrate === false)),
  ]);
  const logits = new Float64Array(rows.length);
  for (const side of [0, 1]) {
    const fit = fitWeights(
      rows.filter((r) => half.get(keyOf(r)) !== side),
      o,
    );
    const model = toModel(fit, { zWarn: 0, byLang: {} }, 'calibration');
    rows.forEach((r, i) => {
      if (half.get(keyOf(r)) === side) logits[i] = maxWindowLogit(model, r.tf).logit;
    });
  }
  return logits;
}

/** Weights fitted on every row, with the warn logits calibrated on out-of-source logits. */
export function fitDetector(
  rows: TrainRow[],
  version: string,
  o: TrainOptions = DEFAULT_TRAIN,
): { fitted: FittedWeights; calibration: Calibration; model: LinearModel } {
  const fitted = fitWeights(rows, o);
  const calibration = calibrate(rows, outOfSourceLogits(rows, o), o);
  return { fitted, calibration, model: toModel(fitted, calibration, version) };
}
