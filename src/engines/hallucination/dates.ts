import { MONTHS } from './lexicon.js';

export interface DateMention {
  y?: number;
  m?: number;
  d?: number;
  /** Second reading of an ambiguous numeric date (03/05/2019: March 5 or 3 May). */
  alt?: { y?: number; m?: number; d?: number };
  start: number;
  end: number;
}

const MONTH_NAMES = [...MONTHS.keys()].sort((a, b) => b.length - a.length).join('|');
// Month names are matched on folded text, so "März"/"marz" and "février"/"fevrier" both work.
const MON = `(${MONTH_NAMES})\\.?`;
const PATTERNS: Array<{
  re: RegExp;
  build: (m: RegExpExecArray) => Omit<DateMention, 'start' | 'end'> | null;
}> = [
  {
    re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
    build: (m) => ({ y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) }),
  },
  {
    re: /\b(\d{1,2})([./])(\d{1,2})\2(\d{4}|\d{2})\b/g,
    build: (m) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const y = fullYear(Number(m[4]), m[4]!.length);
      if (m[2] === '.' || b > 12) return a <= 31 && b <= 12 ? { y, m: b, d: a } : null;
      if (a > 12) return { y, m: b, d: a };
      return { y, m: a, d: b, alt: { y, m: b, d: a } };
    },
  },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|er|e)?\\.?\\s+(?:of\\s+)?${MON}(?:,?\\s+(\\d{4}))?\\b`, 'g'),
    build: (m) => ({ d: Number(m[1]), m: MONTHS.get(m[2]!)!, ...(m[3] ? { y: Number(m[3]) } : {}) }),
  },
  {
    re: new RegExp(`\\b${MON}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, 'g'),
    build: (m) => ({ m: MONTHS.get(m[1]!)!, d: Number(m[2]), ...(m[3] ? { y: Number(m[3]) } : {}) }),
  },
  {
    re: new RegExp(`\\b${MON}\\s+(?:of\\s+|de\\s+)?(\\d{4})\\b`, 'g'),
    build: (m) => ({ m: MONTHS.get(m[1]!)!, y: Number(m[2]) }),
  },
  {
    // A month alone ("every July", "chaque juin", "jeden März"), after a word that introduces a time.
    re: new RegExp(
      `\\b(?:every|each|in|since|until|chaque|en|depuis|jusqu'en|jeden|jedes|im|seit|bis)\\s+${MON}(?![\\p{L}\\d])`,
      'gu',
    ),
    build: (m) => ({ m: MONTHS.get(m[1]!)! }),
  },
];

function fullYear(y: number, digits: number): number {
  if (digits === 4) return y;
  return y < 50 ? 2000 + y : 1900 + y;
}

// "may" and "mars" are ordinary words too; only accept them as months next to a digit (the patterns ensure it).
/** Calendar dates with a month (or a full numeric date). Bare years are handled as numbers. */
export function extractDates(text: string): DateMention[] {
  // Length-preserving fold (no ß→ss), so offsets stay valid for masking dates in the original text.
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (folded.length !== text.length) return [];
  const out: DateMention[] = [];
  const taken: Array<[number, number]> = [];
  for (const { re, build } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(folded); m; m = re.exec(folded)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      const parts = build(m);
      if (!parts) continue;
      if (parts.m !== undefined && (parts.m < 1 || parts.m > 12)) continue;
      if (parts.d !== undefined && (parts.d < 1 || parts.d > 31)) continue;
      taken.push([start, end]);
      out.push({ ...parts, start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

type DateParts = { y?: number; m?: number; d?: number };

function readings(d: DateMention): DateParts[] {
  return d.alt ? [d, d.alt] : [d];
}

/** Same date where both give a field; a field given by only one side is not a conflict. */
export function datesCompatible(a: DateMention, b: DateMention): boolean {
  return readings(a).some((ra) =>
    readings(b).some(
      (rb) =>
        (ra.y === undefined || rb.y === undefined || ra.y === rb.y) &&
        (ra.m === undefined || rb.m === undefined || ra.m === rb.m) &&
        (ra.d === undefined || rb.d === undefined || ra.d === rb.d),
    ),
  );
}

/** The claim date is fully backed: every field the claim gives is given, equal, by the evidence. */
export function dateCovers(evidence: DateMention, claim: DateMention): boolean {
  return readings(claim).some((rc) =>
    readings(evidence).some(
      (re) =>
        (rc.y === undefined || re.y === rc.y) &&
        (rc.m === undefined || re.m === rc.m) &&
        (rc.d === undefined || re.d === rc.d),
    ),
  );
}
