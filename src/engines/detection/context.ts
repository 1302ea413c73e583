// How the surroundings of a match change its weight: where the text came from (options.context), whether
// the text is a discussion that quotes an attack, and the language it is written in.

const INDIRECT_SOURCES = new Set([
  'document',
  'email',
  'web',
  'webpage',
  'tool',
  'tool_output',
  'file',
  'rag',
  'search',
]);

export type ContextKind = 'user' | 'indirect' | 'system_prompt';

export function contextKind(context: string | undefined): ContextKind {
  const trimmed = context?.trim();
  if (!trimmed) return 'user';
  return INDIRECT_SOURCES.has(trimmed.toLowerCase()) ? 'indirect' : 'system_prompt';
}

/** Text that did not come from the user cannot legitimately instruct the assistant at all. */
const INDIRECT_BOOST: Record<string, number> = {
  // A user may well say "in your answer, mention X"; a document or a tool result may not.
  response_steering: 3,
  indirect_injection: 1.3,
  instruction_override: 1.25,
  data_exfiltration: 1.25,
  tool_abuse: 1.25,
  fake_system_tokens: 1.2,
  system_prompt_extraction: 1.15,
};

export function contextFactor(kind: ContextKind, category: string): number {
  if (kind === 'indirect') return INDIRECT_BOOST[category] ?? 1;
  if (kind === 'system_prompt' && category === 'system_prompt_extraction') return 1.15;
  return 1;
}

// Words that mark a text as talking ABOUT attacks (security writing, questions, detection work).
const DISCUSSION =
  /\b(?:prompt\s+injections?|injection\s+attacks?|jailbreak(?:s|ing)?\s+(?:attempts?|attacks?|prompts?|techniques?|examples?)|attackers?|malicious|red[-\s]?team(?:ing)?|detect(?:ion|or|ors|ing|s)?|defen[cds]\w{0,4}|mitigat\w{0,6}|classif(?:y|ier|iers|ication)|guardrails?|owasp|vulnerabilit(?:y|ies)|security\s+(?:research|team|training|awareness|review)|phrases?\s+like|such\s+as|for\s+(?:example|instance)|example\s+of|e\.g\.|what\s+does\s+["']|means?\s+when|why\s+do(?:es)?\s+(?:people|attackers|users)|how\s+(?:can|do|should)\s+(?:i|we)\s+(?:detect|prevent|block|stop|protect|defend|filter|flag|handle|catch)|injection|jailbreak|filter\s+out|blocklist|allowlist|dataset|benchmark|paper|slides?|lecture|training\s+session|quiz|warning\s+sign|scam|phishing\s+awareness|translate|traduis|traduire|ubersetze|ubersetzen|traduci|tradurre|traduce|traducir|attacks?|attaquants?|attaques?|formation|securite|detecter|injection\s+de\s+prompt|angreifer|angriff(?:s|e|en)?|injektion(?:en)?|schulung|sicherheit|erkennt|erkennen|attacc\w{0,4}|iniezion[ei]|sicurezza|rilevare|corso|atacantes?|ataques?|inyeccion(?:es)?|formacion|seguridad|detectar|detecta)\b/;

/** Whether the whole text reads as a discussion of attacks rather than an attack. */
export function isDiscussion(normalised: string): boolean {
  return DISCUSSION.test(normalised);
}

const QUOTES = new Set(['"', "'", '`', '«', '»', '“', '”', '‘', '’', '„']);

/** An apostrophe between two letters (l'utente, don't) is not a quotation mark. */
function isElision(text: string, i: number): boolean {
  const c = text[i];
  if (c !== "'" && c !== '’') return false;
  return /\p{L}/u.test(text[i - 1] ?? '') && /\p{L}/u.test(text[i + 1] ?? '');
}

/** QUOTES by UTF-16 code (each is one code unit): 1 for a quotation mark, 2 for one that may be an elision. */
const QUOTE_CODE = (() => {
  const codes = [...QUOTES].map((q) => q.charCodeAt(0));
  const table = new Uint8Array(Math.max(...codes) + 1);
  for (const c of codes) table[c] = isElision(`a${String.fromCharCode(c)}a`, 1) ? 2 : 1;
  return table;
})();

/** Whether the code unit at `i` is a quotation mark (one of QUOTES) that is not an elision. */
function isQuoteAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const kind = c < QUOTE_CODE.length ? (QUOTE_CODE[c] as number) : 0;
  return kind === 1 || (kind === 2 && !isElision(text, i));
}

/** How far before and after a match a quotation mark still wraps it. */
const QUOTE_BEFORE = 80;
const QUOTE_AFTER = 200;

/**
 * isQuoted for many matches of one text: the positions of the quotation marks and of the line breaks,
 * found in one pass, so that a text with thousands of matches (an attack repeated over 100 KB, #15) does
 * not rescan 280 characters around each of them; each match then costs a few binary searches. (Two
 * arrays of the nearest mark before and after every position cost more than the rest of the scoring.)
 */
export class QuoteIndex {
  private readonly quotes: Int32Array;
  private readonly breaks: Int32Array;
  private readonly length: number;
  constructor(original: string) {
    const n = original.length;
    this.length = n;
    const quotes: number[] = [];
    const breaks: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = original.charCodeAt(i);
      if (c === 10) breaks.push(i);
      else if (c < QUOTE_CODE.length && QUOTE_CODE[c] !== 0 && isQuoteAt(original, i)) quotes.push(i);
    }
    this.quotes = Int32Array.from(quotes);
    this.breaks = Int32Array.from(breaks);
  }
  /** The same answer as isQuoted(original, start, end). */
  isQuoted(start: number, end: number): boolean {
    if (start <= 0 || end >= this.length) return false;
    // The last quotation mark at or before start - 1, with no line break after it up to there.
    const qi = lastAtOrBefore(this.quotes, start - 1);
    if (qi < 0) return false;
    const q = this.quotes[qi] as number;
    const bi = lastAtOrBefore(this.breaks, start - 1);
    if ((bi >= 0 && (this.breaks[bi] as number) > q) || q < start - QUOTE_BEFORE) return false;
    // The first quotation mark at or after end, before any line break.
    const after = this.quotes[lastAtOrBefore(this.quotes, end - 1) + 1];
    if (after === undefined || after >= end + QUOTE_AFTER) return false;
    const nextBreak = this.breaks[lastAtOrBefore(this.breaks, end - 1) + 1];
    return nextBreak === undefined || nextBreak > after;
  }
}

/** Index of the last element ≤ x in a sorted array, -1 when none. */
function lastAtOrBefore(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Whether a match in the ORIGINAL text is wrapped in quotation marks (on the same line). */
export function isQuoted(original: string, start: number, end: number): boolean {
  let before = false;
  for (let i = start - 1; i >= 0 && i >= start - 80; i--) {
    const c = original[i] as string;
    if (c === '\n') break;
    if (QUOTES.has(c) && !isElision(original, i)) {
      before = true;
      break;
    }
  }
  if (!before) return false;
  for (let i = end; i < original.length && i < end + 200; i++) {
    const c = original[i] as string;
    if (c === '\n') break;
    if (QUOTES.has(c) && !isElision(original, i)) return true;
  }
  return false;
}

const LANG_WORDS: Record<string, string[]> = {
  en: ['the', 'and', 'you', 'is', 'are', 'to', 'of', 'what', 'your', 'this', 'with', 'please', 'how', 'all'],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'est',
    'vous',
    'tu',
    'des',
    'une',
    'pour',
    'que',
    'dans',
    'pas',
    'ton',
    'tes',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'du',
    'sie',
    'nicht',
    'ein',
    'eine',
    'mit',
    'mir',
    'dein',
    'deine',
    'ich',
  ],
  it: [
    'il',
    'la',
    'le',
    'di',
    'che',
    'sono',
    'non',
    'una',
    'per',
    'tutte',
    'tuo',
    'tue',
    'mi',
    'gli',
    'della',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'que',
    'es',
    'una',
    'para',
    'por',
    'tus',
    'todas',
    'del',
    'con',
    'como',
    'tu',
  ],
};
const LANG_INDEX = new Map<string, string[]>();
for (const [lang, words] of Object.entries(LANG_WORDS)) {
  for (const w of words) LANG_INDEX.set(w, [...(LANG_INDEX.get(w) ?? []), lang]);
}

/** How many tokens from the start of a text guessLanguage reads. */
export const LANGUAGE_SAMPLE = 400;

/** A stop-word vote over the first LANGUAGE_SAMPLE tokens; undefined when there is too little text to tell. */
export function guessLanguage(tokens: string[]): string | undefined {
  const votes: Record<string, number> = {};
  const limit = Math.min(tokens.length, LANGUAGE_SAMPLE);
  for (let i = 0; i < limit; i++) {
    const langs = LANG_INDEX.get(tokens[i] as string);
    if (!langs) continue;
    for (const l of langs) votes[l] = (votes[l] ?? 0) + 1 / langs.length;
  }
  let best: string | undefined;
  let bestVotes = 0.99;
  for (const [l, v] of Object.entries(votes)) {
    if (v > bestVotes) {
      best = l;
      bestVotes = v;
    }
  }
  return best;
}

const CONTENT_WORD = /[a-z0-9]{4,}/g;

function contentStems(normalised: string, limit: number): Set<string> {
  const out = new Set<string>();
  CONTENT_WORD.lastIndex = 0;
  for (
    let m = CONTENT_WORD.exec(normalised);
    m !== null && out.size < limit;
    m = CONTENT_WORD.exec(normalised)
  )
    out.add(m[0].slice(0, 5));
  return out;
}

// The system prompt's stems, kept for the last prompt seen (it comes with every request of an application;
// one entry compared by value, read only).
let lastTask: { prompt: string; stems: Set<string> } | undefined;
function taskStems(systemPrompt: string): Set<string> {
  if (lastTask?.prompt !== systemPrompt)
    lastTask = { prompt: systemPrompt, stems: contentStems(systemPrompt, 2000) };
  return lastTask.stems;
}

/**
 * Whether a user's text stays off the task the system prompt states: fewer than OFF_TASK_SHARE of its
 * content words (four letters or more, compared by their first five) appear in the system prompt. Both
 * texts must be normalised. An instruction that has nothing to do with what the application is for is
 * riskier than one about its subject; the caller weighs the learned signal more (scoring.ts).
 */
export function offTask(systemPrompt: string, text: string): boolean {
  const task = taskStems(systemPrompt);
  const words = contentStems(text, 400);
  if (task.size < 3 || words.size < 4) return false;
  let shared = 0;
  for (const w of words) if (task.has(w)) shared++;
  return shared / words.size < OFF_TASK_SHARE;
}

export const OFF_TASK_SHARE = 0.15;
