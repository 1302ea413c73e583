import type { Candidate } from '../types.js';
import { candidate, hasDigit, wordHint } from './context.js';
import { matchesOf } from '../matches.js';
import { trimEndWhere } from '../../text.js';

// Prefix-anchored key shapes: the prefix makes them nearly free of false positives. Each comes with the
// literals that all its matches contain (or null), so that a message without them is not scanned for that
// shape.
const KEY_PATTERNS: Array<[string, string | readonly string[] | null, RegExp]> = [
  ['aws', null, /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g],
  ['github', '_', /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g],
  ['github', 'github_pat_', /\bgithub_pat_[A-Za-z0-9_]{50,255}\b/g],
  ['gitlab', 'glpat-', /\bglpat-[A-Za-z0-9_-]{20,}\b/g],
  ['stripe', '_', /\b(?:sk|rk|pk|whsec)_(?:live|test)_[A-Za-z0-9]{16,247}\b/g],
  ['openai', 'sk-', /\bsk-(?:proj-|svcacct-|admin-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}\b/g],
  ['google', 'AIza', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['slack', 'xox', /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g],
  ['slack', 'hooks.slack.com', /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g],
  ['sendgrid', 'SG.', /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}\b/g],
  ['npm', 'npm_', /\bnpm_[A-Za-z0-9]{36}\b/g],
  ['huggingface', 'hf_', /\bhf_[A-Za-z0-9]{30,40}\b/g],
  ['twilio', 'SK', /\bSK[0-9a-f]{32}\b/g],
  ['parapet', '_live_', /\b(?:al|sw)_live_[A-Za-z0-9_-]{16,}\b/g],
  ['jwt', 'eyJ', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
  [
    'private_key',
    // Both markers: from each BEGIN line the pattern reads up to 8 KB looking for the END line, so text with
    // key headers but no END line (54 KB of them cost 65 ms) must not be scanned.
    ['PRIVATE KEY-----', '-----END '],
    /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]{16,8192}?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g,
  ],
];

const SECRET_ASSIGN =
  /\b(?:api[_ -]?key|apikey|secret(?:[_ -]?key)?|access[_ -]?(?:key|token)|auth[_ -]?token|bearer|client[_ -]?secret|token|clé api|cle api|api-schlüssel|api-schluessel|chiave api|x-api-key)["']?\s*(?:[:=]|is|est|ist|è)\s*["'`]?([A-Za-z0-9_\-+/=.]{16,200})/gi;
// The keyword may be followed by a few words ("das Passwort für den Testserver lautet …").
const PASSWORD_WORDS = "password|passwd|pwd|passcode|mot de passe|mdp|passwort|kennwort|parola d'ordine|pin";
// The connector words stand alone: "password Winter-2024" once read the "in" inside "Winter" as "in" and
// cut the value there ("ter-2024"), leaving "Win" in clear before the token (issue 17). The words between
// the keyword and the connector end on a word boundary for the same reason.
const PASSWORD_ASSIGN = new RegExp(
  `\\b(?:${PASSWORD_WORDS})["']?(?:\\s+(?!is\\b|est\\b|ist\\b|è\\b|lautet\\b)[\\p{L}-]+(?![\\p{L}\\p{N}])){0,4}?\\s*([:=]|(?<![\\p{L}\\p{N}])(?:is|est|ist|è|lautet|sarà|sera|will be|wird|to|en|auf|a|in|sur|su|as|comme|come|als)(?![\\p{L}\\p{N}]))\\s*["'\`]?([^\\s"'\`]{4,64})`,
  'giu',
);
// No connector at all ("use password Winter-2024", "Passwort Sommer2023!", "new password: …" is above): the
// value right after the keyword counts only when it mixes letters with digits or symbols, as secrets do
// and prose does not.
const PASSWORD_BARE = new RegExp(`\\b(?:${PASSWORD_WORDS})["']?\\s+["'\`]?([^\\s"'\`]{6,64})`, 'giu');
const SECRET_SHAPED = /^(?=.*\p{L})(?=.*[\p{N}\p{P}\p{S}])[^\s]{6,64}$/u;
const mayMentionPassword = wordHint(PASSWORD_WORDS);
// Both password patterns open with `\b(?:keyword)`, so a match can only start where that does. Scanning a long
// text with /iu (case folding over all of Unicode) costs about four times an /i scan, so the keyword's places
// are found with /i and the patterns run sticky from each of them, in order, skipping places inside the last
// match: the same matches as the global /iu scan. For ASCII keywords /i and /iu differ only on the long s and
// the Kelvin sign (also inside \b under /iu); a text holding either is scanned the slow way.
const KEYWORD_PLACES = new RegExp(`\\b(?=(?:${PASSWORD_WORDS}))`, 'gi');
const FOLDED_ONLY_UNDER_IU = /[\u017F\u212A]/;
const PASSWORD_ASSIGN_AT = new RegExp(PASSWORD_ASSIGN.source, 'iuy');
const PASSWORD_BARE_AT = new RegExp(PASSWORD_BARE.source, 'iuy');

function passwordMatches(text: string, global: RegExp, sticky: RegExp): Iterable<RegExpExecArray> {
  if (FOLDED_ONLY_UNDER_IU.test(text)) return matchesOf(global, text);
  const out: RegExpExecArray[] = [];
  let from = 0;
  for (const place of matchesOf(KEYWORD_PLACES, text)) {
    if (place.index < from) continue;
    sticky.lastIndex = place.index;
    const m = sticky.exec(text);
    if (m === null) continue;
    out.push(m);
    from = m.index + Math.max(1, m[0].length);
  }
  return out;
}
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s:/@]{1,64}:([^\s@/]{3,64})@/gi;
const PLACEHOLDER =
  /^(?:x+|\*+|\.+|<.*>|\{.*\}|\$\{.*\}|your|changeme|example|placeholder|redacted|secret|password|null|none|undefined|required|incorrect|wrong|expired|reset|oublié|vergessen)/i;

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', ')', ']', '}'].map((c) => c.charCodeAt(0)));
const isTrailingPunctuation = (c: number): boolean => TRAILING_PUNCTUATION.has(c);

/** The value without trailing punctuation (a loop: `[…]+$` retried from inside a long run is quadratic). */
export function trimPunctuation(value: string): string {
  return trimEndWhere(value, isTrailingPunctuation);
}

export function detectSecrets(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const [name, hint, re] of KEY_PATTERNS) {
    if (
      hint !== null &&
      !(typeof hint === 'string' ? text.includes(hint) : hint.every((h) => text.includes(h)))
    )
      continue;
    for (const m of matchesOf(re, text)) {
      out.push(
        candidate('API_KEY', 'CREDENTIALS', text, m.index, m.index + m[0].length, 0.97, `secret:${name}`),
      );
    }
  }
  // An accepted key holds a digit; prose without one has nothing to find here.
  const assignments = hasDigit(text) ? matchesOf(SECRET_ASSIGN, text) : [];
  for (const m of assignments) {
    const value = trimPunctuation(m[1]!);
    // Hashes and commit ids are shared freely; a key also mixes character classes.
    if (/^[0-9a-f]{32}$|^[0-9a-f]{40}$|^[0-9a-f]{64}$/i.test(value)) continue;
    if (PLACEHOLDER.test(value) || entropy(value) < 3.3 || !/\d/.test(value) || !/[A-Za-z]/.test(value))
      continue;
    const start = m.index + m[0].length - m[1]!.length;
    out.push(
      candidate('API_KEY', 'CREDENTIALS', text, start, start + value.length, 0.85, 'secret:assignment'),
    );
  }
  // (Asked once: the /i scan and its Kelvin-sign check read the whole text.)
  const mentionsPassword = mayMentionPassword(text);
  const passwords = mentionsPassword ? passwordMatches(text, PASSWORD_ASSIGN, PASSWORD_ASSIGN_AT) : [];
  for (const m of passwords) {
    const value = trimPunctuation(m[2]!);
    if (value.length < 4 || PLACEHOLDER.test(value)) continue;
    // "the password is incorrect/case-sensitive": after a verb, a plain lower-case word is prose, not a secret.
    if (/^[a-z]/i.test(m[1]!) && /^[\p{Ll}-]+$/u.test(value)) continue;
    const start = m.index + m[0].length - m[2]!.length;
    out.push(candidate('PASSWORD', 'CREDENTIALS', text, start, start + value.length, 0.9, 'password'));
  }
  const bare =
    mentionsPassword && hasDigit(text) ? passwordMatches(text, PASSWORD_BARE, PASSWORD_BARE_AT) : [];
  for (const m of bare) {
    const value = trimPunctuation(m[1]!);
    if (!SECRET_SHAPED.test(value) || !/\d/.test(value) || PLACEHOLDER.test(value)) continue;
    const start = m.index + m[0].length - m[1]!.length;
    out.push(candidate('PASSWORD', 'CREDENTIALS', text, start, start + value.length, 0.85, 'password:bare'));
  }
  const urls = text.includes('://') ? matchesOf(URL_CREDENTIALS, text) : [];
  for (const m of urls) {
    const start = m.index + m[0].length - 1 - m[1]!.length;
    out.push(candidate('PASSWORD', 'CREDENTIALS', text, start, start + m[1]!.length, 0.9, 'password:url'));
  }
  return out;
}
