// Every labelled source the detection eval and the trainer read: the public files under
// ../shared/data/injection (read in place, never copied), the team's corpus (corpus/*.jsonl) and the team's
// own training corpus (own/, written by us). Each row gets a language and a kind so the report can group it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { carrierSources } from './carriers.js';
import { ownCorpus } from './own/index.js';

/** Attack kinds (label 1) and benign kinds (label 0) the report groups by. */
export type Kind =
  | 'direct'
  | 'jailbreak'
  | 'indirect'
  | 'obfuscated'
  | 'general'
  | 'document'
  | 'hard_negative';

export interface EvalRow {
  text: string;
  label: 0 | 1;
  lang: string;
  kind: Kind;
  context?: string;
  source: string;
  /** Training-only material (carriers.ts): kept out of calibration and never scored. */
  aux?: boolean;
  /**
   * Near-duplicate family, tagged where a generator composes one hand-written text several times (one
   * persona set-up with each of four questions, one document alone and under each task): train.ts can count
   * a family once (TrainOptions.dedup, dedupCalibration). Untagged rows are their own family.
   */
  family?: string;
}

export interface Source {
  name: string;
  /** False for eval-only licences (non-commercial or unstated): measured, never trained on. */
  trainable: boolean;
  /** False for training-only sources (carriers.ts): trained on in every fold, never held out or scored. */
  scored?: boolean;
  rows: EvalRow[];
}

const here = fileURLToPath(new URL('.', import.meta.url));
// The shared data sits next to the checkout (../shared) for /work/main and two levels up for a worktree.
export const PUBLIC_DIR =
  process.env['DETECTION_DATA_DIR'] ??
  [join(here, '../../../shared/data/injection'), join(here, '../../../../shared/data/injection')].find((d) =>
    existsSync(d),
  ) ??
  join(here, '../../../shared/data/injection');
const EVAL_ONLY = new Set(['qualifire_prompt_injections_benchmark']);
const LANGS = new Set(['en', 'fr', 'de', 'it', 'es']);

interface RawRow {
  text: string;
  label: number;
  lang?: string;
  kind?: string;
  category?: string;
  context?: string;
}

function readJsonl(path: string): RawRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RawRow);
}

const langOf = (r: RawRow): string => (r.lang && LANGS.has(r.lang) ? r.lang : 'other');

function publicKind(file: string, r: RawRow): Kind {
  if (file.startsWith('bipia')) return r.label ? 'indirect' : 'document';
  if (r.label === 0) return file.startsWith('spikee') ? 'hard_negative' : 'general';
  if (/jailbreak|qualifire/.test(file)) return 'jailbreak';
  if (file.startsWith('attack_templates'))
    return r.category?.startsWith('jailbreak') ? 'jailbreak' : 'direct';
  return 'direct';
}

function teamKind(r: RawRow): Kind {
  switch (r.kind) {
    case 'obfuscated':
      return 'obfuscated';
    case 'indirect':
      return 'indirect';
    case 'hard_negative':
      return 'hard_negative';
    case 'benign':
      return r.context ? 'document' : 'general';
    default:
      return 'direct';
  }
}

/** BIPIA is split by the kind of context (email, table, code): clean and injected copies stay together. */
function bipiaContext(r: RawRow, cleanKinds: Map<string, string>): string {
  const m = /indirect_clean_(\w+)/.exec(r.category ?? '');
  if (m) return m[1] as string;
  // An instruction planted in the middle splits the context, so its head or its tail is looked for.
  for (const [clean, kind] of cleanKinds)
    if (r.text.includes(clean.slice(0, 30)) || r.text.includes(clean.slice(-30))) return kind;
  return 'unknown';
}

function publicSources(): Source[] {
  if (!existsSync(PUBLIC_DIR)) return [];
  const out: Source[] = [];
  for (const file of readdirSync(PUBLIC_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const base = file.replace(/\.jsonl$/, '');
    const raw = readJsonl(join(PUBLIC_DIR, file));
    // BIPIA's texts are emails, tables and code an assistant reads, so they are analysed as documents.
    const context = base.startsWith('bipia') ? 'document' : undefined;
    const rows = raw.map(
      (r): EvalRow => ({
        text: r.text,
        label: r.label ? 1 : 0,
        lang: langOf(r),
        kind: publicKind(base, r),
        ...(context ? { context } : {}),
        source: base,
      }),
    );
    if (base.startsWith('bipia')) {
      const clean = new Map<string, string>();
      for (const r of raw) {
        const m = /indirect_clean_(\w+)/.exec(r.category ?? '');
        if (m && r.text.length >= 10) clean.set(r.text, m[1] as string);
      }
      const groups = new Map<string, EvalRow[]>();
      raw.forEach((r, i) => {
        const name = `bipia_${bipiaContext(r, clean)}`;
        const row = { ...(rows[i] as EvalRow), source: name };
        groups.set(name, [...(groups.get(name) ?? []), row]);
      });
      for (const [name, g] of [...groups].sort()) out.push({ name, trainable: true, rows: g });
      continue;
    }
    out.push({ name: base, trainable: !EVAL_ONLY.has(base), rows });
  }
  return out;
}

function teamSource(): Source {
  const rows: EvalRow[] = [];
  for (const split of ['tune', 'test', 'holdout']) {
    for (const r of readJsonl(join(here, 'corpus', `${split}.jsonl`))) {
      rows.push({
        text: r.text,
        label: r.label ? 1 : 0,
        lang: langOf(r),
        kind: teamKind(r),
        ...(r.context ? { context: r.context } : {}),
        source: 'team_corpus',
      });
    }
  }
  return { name: 'team_corpus', trainable: true, rows };
}

function ownSource(round9: boolean): Source {
  return { name: 'own_training', trainable: true, rows: ownCorpus({ round9 }) };
}

/** `round9`: the own corpus with the ninth round (not in the shipped model; own/index.ts). */
export function loadSources({ round9 = false } = {}): Source[] {
  const own = ownSource(round9);
  return [
    ...publicSources(),
    teamSource(),
    ...(own.rows.length ? [own] : []),
    ...(existsSync(PUBLIC_DIR) ? carrierSources(PUBLIC_DIR) : []),
  ];
}
