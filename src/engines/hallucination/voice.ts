import { isSlotWord } from './slot-words.js';
import { SYNONYMS } from './lexicon.js';
import { canonical } from './terms.js';
import { fold, isStopword, type Token } from './text.js';
import { lexLemma } from './wordnet.js';

/**
 * Active/passive voice. "The bridge was designed by Anna Weber" and "Anna Weber designed the bridge" state
 * the same fact with the roles in opposite order, so word-pair signals (who did what to whom) read the
 * passive as a different fact. `actionOrder` gives the content words of a clause in active order: the
 * agent ("by"/"par"/"von" phrase) first, then the verb, then the passive subject, then the rest. Only the
 * first passive of a clause is turned; every scan looks a bounded number of tokens ahead, so the work is
 * linear in the clause.
 */

interface VoiceRules {
  /** Auxiliaries that open a passive ("was", "été", "wurde"). */
  aux: ReadonlySet<string>;
  /** Words that introduce the agent. */
  agent: ReadonlySet<string>;
  /** Whether the participle stands at the end of the clause (German) rather than right after the aux. */
  finalParticiple: boolean;
}

const set = (s: string): ReadonlySet<string> => new Set(s.split(' ').map(fold));

const RULES: Record<string, VoiceRules> = {
  en: { aux: set('is are was were be been being'), agent: set('by'), finalParticiple: false },
  fr: {
    aux: set('été est sont était étaient fut furent sera seront soit soient'),
    agent: set('par'),
    finalParticiple: false,
  },
  de: { aux: set('wurde wurden wird werden worden'), agent: set('von vom durch'), finalParticiple: true },
};

/** Articles skipped at the start of an agent phrase; any other stopword ends it. */
const DETERMINERS = set(
  'the a an his her its their le la les l un une des du der die das den dem des ein eine einen einem einer eines seine ihre',
);
/** Particles inside a multi-word name ("Bank of England", "Charles de Gaulle", "Otto von Bismarck"). */
const NAME_PARTICLES = set('of de du von van der la');

/** Tokens an adverb or negation may take between the auxiliary and the participle ("was first built"). */
const AUX_GAP = 2;
/** Tokens between the participle and the agent marker ("was built in 1990 by"). */
const AGENT_GAP = 6;
/** Longest agent phrase read. */
const AGENT_MAX = 6;

export interface Passive {
  /** Token index of the auxiliary, the participle and the agent marker; agent tokens are [agentStart, agentEnd). */
  aux: number;
  participle: number;
  marker: number;
  agentStart: number;
  agentEnd: number;
}

const isContent = (t: Token): boolean => !isStopword(t.norm) && t.norm.length > 1 && !isSlotWord(t.norm);

/** A punctuation mark between two tokens ends a phrase. */
function breakBetween(text: string, a: Token, b: Token): boolean {
  return /[,;:()]/.test(text.slice(a.start + a.raw.length, b.start));
}

function agentPhrase(
  text: string,
  tokens: Token[],
  from: number,
  end = tokens.length,
): [number, number] | null {
  let i = from;
  while (i < end && i < from + 2 && DETERMINERS.has(tokens[i]!.norm)) i++;
  const start = i;
  while (i < end && i - start < AGENT_MAX) {
    const t = tokens[i]!;
    if (i > start && breakBetween(text, tokens[i - 1]!, t)) break;
    if (isContent(t)) i++;
    else if (i > start && NAME_PARTICLES.has(t.norm) && tokens[i + 1]?.capital) i++;
    else break;
  }
  return i > start ? [start, i] : null;
}

/** The first passive construction of a clause, or null. */
export function findPassive(text: string, tokens: Token[], lang: string): Passive | null {
  const rules = RULES[lang];
  if (!rules) return null;
  for (let a = 0; a < tokens.length; a++) {
    if (!rules.aux.has(tokens[a]!.norm)) continue;
    if (rules.finalParticiple) {
      // German: "X wurde 1990 von Y entworfen (worden)": the agent after the aux, the participle last.
      for (let m = a + 1; m < tokens.length && m <= a + AGENT_GAP; m++) {
        if (!rules.agent.has(tokens[m]!.norm)) continue;
        let p = -1;
        for (let k = m + 1; k < tokens.length && k <= m + AGENT_MAX + AGENT_GAP; k++) {
          if (breakBetween(text, tokens[k - 1]!, tokens[k]!)) break;
          if (isContent(tokens[k]!)) p = k;
        }
        const agent = p > m + 1 ? agentPhrase(text, tokens, m + 1, p) : null;
        if (!agent) break;
        return { aux: a, participle: p, marker: m, agentStart: agent[0], agentEnd: agent[1] };
      }
      continue;
    }
    // English and French: aux, at most AUX_GAP adverbs (or "été" after "a"), the participle, then the agent.
    let p = a + 1;
    const adverb = (t: Token) => !isContent(t) || (lang === 'en' && t.norm.endsWith('ly'));
    // A determiner ends it: "is a song by X" is a noun phrase with its author, not a passive.
    while (p < tokens.length && p <= a + AUX_GAP && adverb(tokens[p]!) && !DETERMINERS.has(tokens[p]!.norm))
      p++;
    if (p >= tokens.length || !isContent(tokens[p]!)) continue;
    for (let m = p + 1; m < tokens.length && m <= p + AGENT_GAP; m++) {
      if (breakBetween(text, tokens[m - 1]!, tokens[m]!)) break;
      if (!rules.agent.has(tokens[m]!.norm)) continue;
      const agent = agentPhrase(text, tokens, m + 1);
      if (!agent) break;
      return { aux: a, participle: p, marker: m, agentStart: agent[0], agentEnd: agent[1] };
    }
  }
  return null;
}

/**
 * The term a verb form is compared under in active order: English irregular forms to their lemma
 * ("written" → "write", "wrote" → "write"), German participles without "ge-" ("gegründet" / "gründete").
 */
function verbTerm(t: Token, lang: string): string {
  if (lang === 'de') {
    // The German word-form groups first ("entwarf" / "entworfen"), then participles without "ge-".
    const s = SYNONYMS.get(t.norm);
    if (s) return s;
    const n = t.norm.startsWith('ge') && t.norm.length > 6 ? t.norm.slice(2) : t.norm;
    return n.replace(/(?:ete|ten|te|et|en|t|e)$/u, '');
  }
  const c = canonical(t);
  return lang === 'en' ? lexLemma(c) : c;
}

/**
 * Token indexes of one clause's content words in active order: the agent ("by"/"par"/"von" phrase) first,
 * then the participle, then the passive subject, then whatever else the clause says (time, place, manner).
 * roles.ts reads who stands before and after the verb from it.
 */
export function actionIndexes(text: string, tokens: Token[], lang: string): number[] {
  const range = (from: number, to: number, skip?: ReadonlySet<number>): number[] => {
    const out: number[] = [];
    for (let i = from; i < to; i++) if (!skip?.has(i) && isContent(tokens[i]!)) out.push(i);
    return out;
  };
  const p = findPassive(text, tokens, lang);
  if (!p) return range(0, tokens.length);
  const agentIdx = new Set<number>();
  for (let i = p.agentStart; i < p.agentEnd; i++) agentIdx.add(i);
  agentIdx.add(p.marker);
  agentIdx.add(p.participle);
  return [
    ...range(p.agentStart, p.agentEnd),
    p.participle,
    ...range(0, p.aux),
    ...range(p.aux + 1, tokens.length, agentIdx),
  ];
}

/** The term a token is compared under in active order (verb forms by lemma). */
export function actionTerm(t: Token, lang: string): string {
  return lang === 'de' || lang === 'en' ? verbTerm(t, lang) : canonical(t);
}

/** Content terms of one clause in active order, with verb forms compared by lemma. */
export function actionOrder(text: string, tokens: Token[], lang: string): string[] {
  return actionIndexes(text, tokens, lang).map((i) => actionTerm(tokens[i]!, lang));
}

/** Consecutive pairs of a term sequence, as keys. */
export function pairsOf(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < terms.length; i++) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}
