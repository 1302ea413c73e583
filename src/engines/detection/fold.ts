// Character folding used by normalisation: every look-alike collapses onto the plain lower-case Latin
// letter an attacker meant, so one pattern library covers fullwidth, mathematical, accented and
// Cyrillic/Greek spellings alike.

/** Cyrillic and Greek letters that render like Latin ones (upper and lower case). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  з: '3',
  и: 'u',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ь: 'b',
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  У: 'y',
  Х: 'x',
  І: 'i',
  Ј: 'j',
  Ѕ: 's',
  Ԁ: 'd',
  Һ: 'h',
  Ӏ: 'l',
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  ı: 'i',
  ȷ: 'j',
  ℓ: 'l',
  ɡ: 'g',
  ɑ: 'a',
  ʀ: 'r',
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

const PUNCTUATION: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u00B4': "'",
  '`': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2033': '"',
  '\u2039': '"',
  '\u203A': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
};

export const FOLD_HOMOGLYPH = 1;
export const FOLD_WIDTH = 2;

export interface Folded {
  out: string;
  kind: number;
}

/**
 * What each code point folds to, once computed: pages of 256 code points, made on first use (a lookup is
 * two array reads, where a map lookup per non-ASCII character was a quarter of normalising a homoglyph
 * text, #15; pages keep it small, as a text uses a few blocks of Unicode).
 */
const pages: ((Folded | undefined)[] | undefined)[] = new Array(0x110000 >> 8).fill(undefined);

/** Returns true for characters a reader cannot see: zero-width, bidi controls, soft hyphen, fillers. */
export function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x180e ||
    cp === 0x061c ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    cp === 0xffa0
  );
}

export function isTag(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

/** Variation selectors carry no glyph; "emoji smuggling" hides one byte in each. */
export function variationByte(cp: number): number {
  if (cp >= 0xfe00 && cp <= 0xfe0f) return cp - 0xfe00;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return cp - 0xe0100 + 16;
  return -1;
}

/** Folds one non-ASCII code point: punctuation, homoglyphs, NFKC, accents stripped, lower case. */
export function foldCodePoint(cp: number): Folded {
  let page = pages[cp >> 8];
  const hit = page?.[cp & 255];
  if (hit) return hit;
  const ch = String.fromCodePoint(cp);
  let result: Folded;
  const punct = PUNCTUATION[ch];
  const glyph = HOMOGLYPHS[ch];
  if (punct !== undefined) result = { out: punct, kind: 0 };
  else if (glyph !== undefined) result = { out: glyph, kind: FOLD_HOMOGLYPH };
  else {
    const nfkc = ch.normalize('NFKC');
    const stripped = nfkc
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    let out = '';
    for (const c of stripped) out += PUNCTUATION[c] ?? HOMOGLYPHS[c] ?? c;
    if (/\s/.test(out)) out = ' ';
    const widthChanged = nfkc !== ch && /^[\x21-\x7e]+$/.test(nfkc) && cp > 0x2000;
    result = { out, kind: widthChanged ? FOLD_WIDTH : 0 };
  }
  if (!page) {
    page = new Array(256).fill(undefined);
    pages[cp >> 8] = page;
  }
  page[cp & 255] = result;
  return result;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '9': 'g' };

export function leetLetter(ch: string): string | undefined {
  return LEET[ch];
}
