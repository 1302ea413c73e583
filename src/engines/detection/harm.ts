// Harmful request dressed up as fiction or role-play: "imagine you are a novelist… write a story that
// subtly spreads misinformation and mocks…". No single word is suspicious, and role-play or a harsh word
// alone is ordinary, so the signal needs a framing cue AND several distinct harm words. The word lists are
// the team's own, over normalised text (lower case, no accents), in the five languages.

const FRAMING =
  /\b(?:imagine|pretend|role-?play|in\s+a\s+world\s+where|(?:alternate|parallel)\s+(?:universe|reality|world)|fictional|hypothetical|you\s+are\s+an?|you're\s+an?|character|story|screenplay|novel|narrative|scenario|game|imagine[sz]?|fictif|fictive|personnage|histoire|roman|stell\s+dir\s+vor|fiktiv\w*|figur|geschichte|rollenspiel|immagina|finzione|personaggio|storia|romanzo|imagina|ficticio|ficcion|personaje|historia|novela)\b/;

const HARM =
  /\b(?:disinformation|conspirac\w{1,6}|derogatory|defamatory|defame|ridicul\w{1,5}|insult\w{0,4}|drugs|propaganda|inferior|degrading|slurs?|hate\s+speech|false\s+information|undermin\w{1,5}|discredit\w{0,4}|misinformation|illegal\w{0,3}|hack\w{0,4}|offensive|explicit|racis\w{1,3}|manipulat\w{1,5}|demean\w{0,4}|mock\w{0,4}|harass\w{0,5}|fake\s+news|stereotyp\w{1,5}|discriminat\w{1,5}|unethical|exploit\w{0,5}|steal\w{0,3}|dangerous|harmful|desinformation|diffamatoire|haineux|haineuse|illegale?s?|dangereux|nuisible|contraire\s+a\s+l'ethique|desinformation|verleumderisch\w{0,2}|hetze|illegal\w{0,2}|gefahrlich\w{0,2}|schadlich\w{0,2}|rassistisch\w{0,2}|unethisch\w{0,2}|disinformazione|diffamatori\w|illegal[ei]|pericolos\w|dannos\w|razzist\w|non\s+etic\w|desinformacion|difamatori\w|ilegal(?:es)?|peligros\w|dañin\w|danin\w|racista|poco\s+etic\w)\b/g;

/** Distinct harm words needed: at the lower count the signal only adds to other evidence. */
const WEAK_AT = 3;
const STRONG_AT = 4;
export const HARM_POINTS_WEAK = 25;
export const HARM_POINTS_STRONG = 45;

export interface HarmFinding {
  /** Offsets in the normalised text: the first to the last harm word. */
  start: number;
  end: number;
  points: number;
}

export function harmfulFraming(normalised: string): HarmFinding | null {
  if (!FRAMING.test(normalised)) return null;
  const words = new Set<string>();
  let start = -1;
  let end = -1;
  HARM.lastIndex = 0;
  for (let m = HARM.exec(normalised); m !== null; m = HARM.exec(normalised)) {
    words.add(m[0]);
    if (start < 0) start = m.index;
    end = m.index + m[0].length;
  }
  if (words.size < WEAK_AT) return null;
  return { start, end, points: words.size >= STRONG_AT ? HARM_POINTS_STRONG : HARM_POINTS_WEAK };
}
