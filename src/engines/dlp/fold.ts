// The detectors read ASCII: `\d` is [0-9], the checksums read ASCII digits, the IBAN country is [A-Z]{2}.
// A number typed with an East Asian input method in full-width mode ("４１１１ １１１１ …"), on an Arabic or
// Persian keyboard ("٠٧٩ ١٢٣ ٤٥ ٦٧"), or in a "fancy text" style (mathematical bold 𝟒𝟏𝟏𝟏) passed every
// detector in clear. So the detectors read a folded copy of the text, and every finding is mapped back to
// the original characters: the token replaces exactly what was written and rehydration gives it back.
//
// What is folded, and why these:
// - the full-width forms U+FF01–FF5E (digits, Latin letters, punctuation: `＋４１`, `ＣＨ９３`, `－`) and the
//   ideographic space U+3000 that the same input methods type between groups: what NFKC maps to ASCII, one
//   UTF-16 unit for one;
// - mathematical digits U+1D7CE–1D7FF and segmented digits U+1FBF0–1FBF9, which NFKC maps to ASCII (two
//   UTF-16 units for one: the only folds that change offsets);
// - decimal digits of the scripts whose keyboards type native digits and whose speakers are many among our
//   organizations' staff and customers: Arabic-Indic U+0660–0669 (Arabic), Extended Arabic-Indic
//   U+06F0–06F9 (Persian, Urdu, Pashto) and Devanagari U+0966–096F (Hindi, Marathi, Nepali). NFKC leaves
//   these alone; each is one digit for one. Other scripts' digits (Bengali, Thai, Myanmar…) are left out:
//   rarely met in the languages and regions we serve, and each would be one more line below;
// - the no-break, narrow no-break, figure, thin and the other fixed-width spaces (U+00A0, U+202F, U+2007,
//   U+2009, U+2000–200A, U+205F), which NFKC maps to a space too, one unit for one: French and Swiss typography
//   groups digits with them ("06 12 34 56 78", "+41 44 668 18 00", a NIR "1 84 12 75 123 456 40", an AHV
//   number, a card, an amount, "8001 Zürich"), word processors and PDF copies keep them, and
//   `Intl.NumberFormat('fr-FR')` prints U+202F. Read as spaces, every detector that takes a space between
//   groups takes them; read as anything else, all those numbers passed in clear (only the IBAN and phone
//   detectors knew U+00A0). Between two values such a space parts them as a space does; a card right before
//   another number ("…1111 81 rue du Lac") is read by the card detector's shorter groupings (financial.ts).
// A text with none of these characters (almost every one) is returned as it is after one scan.

const FOLDABLE =
  /[\u00A0\u0660-\u0669\u06F0-\u06F9\u0966-\u096F\u2000-\u200A\u202F\u205F\u3000\uFF01-\uFF5E\uD835\uD83E]/;

/** Zero of each folded digit block of the Basic Multilingual Plane (one UTF-16 unit each). */
const BMP_DIGIT_ZEROS = [0x0660, 0x06f0, 0x0966] as const;

export interface Folded {
  /** The text the detectors read. */
  text: string;
  /**
   * For each UTF-16 offset of `text` (and its length), the offset in the original; null when the two have the
   * same length, offsets then being the same.
   */
  toOriginal: Int32Array | null;
}

function foldUnit(c: number): number {
  if (c >= 0xff01 && c <= 0xff5e) return c - 0xfee0;
  if (c === 0x3000 || c === 0x00a0 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f) return 0x20;
  for (const zero of BMP_DIGIT_ZEROS) if (c >= zero && c <= zero + 9) return 0x30 + c - zero;
  return c;
}

/** The ASCII digit of a folded astral digit (a surrogate pair), or -1. */
function astralDigit(lead: number, trail: number): number {
  // U+1D7CE–1D7FF: five styles of 0–9 in a row (bold, double-struck, sans-serif, sans-serif bold, monospace).
  if (lead === 0xd835 && trail >= 0xdfce && trail <= 0xdfff) return 0x30 + ((trail - 0xdfce) % 10);
  // U+1FBF0–1FBF9: segmented digits.
  if (lead === 0xd83e && trail >= 0xdff0 && trail <= 0xdff9) return 0x30 + trail - 0xdff0;
  return -1;
}

export function foldForDetection(text: string): Folded {
  if (!FOLDABLE.test(text)) return { text, toOriginal: null };
  const units: number[] = [];
  // Built only if an astral digit shortens the text.
  let map: number[] | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c === 0xd835 || c === 0xd83e ? astralDigit(c, text.charCodeAt(i + 1)) : -1;
    if (digit >= 0) {
      map ??= Array.from({ length: units.length }, (_, k) => k);
      map.push(i);
      units.push(digit);
      i++;
      continue;
    }
    map?.push(i);
    units.push(foldUnit(c));
  }
  map?.push(text.length);
  let folded = '';
  // fromCharCode takes its arguments on the stack: in slices, so a long text cannot overflow it.
  for (let i = 0; i < units.length; i += 8192) folded += String.fromCharCode(...units.slice(i, i + 8192));
  return { text: folded, toOriginal: map === null ? null : Int32Array.from(map) };
}
