import type { Candidate } from '../types.js';
import {
  COUNTRIES,
  DE_LEADING,
  DE_NOT_STREET,
  DE_SUFFIXES,
  DE_WORDS,
  EN_STREET_TYPES,
  FR_TYPES,
  IT_TYPES,
  UK_POSTCODE,
  UNIT_WORDS,
  US_STATES,
  validEuropeanPostcode,
} from './address-parts.js';
import { candidate, contextBefore } from './context.js';
import { matchesOf } from '../matches.js';

// A structured street-address finder. A street line is found first, in the shape of its country: number,
// name and type in English ("221B Baker Street", "1530 N Dearborn Pkwy"), name with a street-type ending
// and number after it in German ("Bahnhofstrasse 12", "Eduard-Sueß-Gasse 9/3"), number, type and name in
// French ("12 rue du Lac"), type, name, number in Italian ("Via Nassa 5"); or a post-office, military or
// highway form. Then the address is followed forward over what may come after it, on the same line or the
// next ones: unit lines (Apt 4B, Suite 200, Whg. 3, Bât. B, interno 5), US city + state + ZIP, British town
// and postcode, European postcode + town (each country's postcode range checked), province, country. A unit
// line just before the street is taken too. Every part is bounded, so the work is linear in the text.

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function alternation(words: readonly string[]): string {
  return [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
}

function titleCase(w: string): string {
  return w[0]!.toUpperCase() + w.slice(1);
}

/** A word list in its written forms: as listed, capitalised, upper and lower case. */
function cased(words: readonly string[]): string {
  return alternation(words.flatMap((w) => [w, titleCase(w), w.toUpperCase(), w.toLowerCase()]));
}

const UP = 'A-ZÀ-ÖØ-Þ';
const CAPW = `[${UP}][\\p{L}'’.]{0,30}(?:-[\\p{L}][\\p{L}'’.]{0,30}){0,3}`;
const LOWW = "[a-zß-öø-ÿ][\\p{L}'’]{0,30}";
const ORD = '\\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH)';
const NUM = '\\d{1,6}(?:[-/]\\d{1,5})?(?: ?[A-Za-z](?![\\p{L}\\d]))?';
const DIR =
  '(?:[NSEW]|NE|NW|SE|SW|[NSEW]\\.|North|South|East|West|north|south|east|west|NORTH|SOUTH|EAST|WEST)';
const EN_TYPE = cased(EN_STREET_TYPES);

// English: number, optional direction, one to four name words, a street type, optional direction.
const EN_STREET = new RegExp(
  `(?<![\\p{L}\\d.,-])(?:${NUM}|One|Two|Three|Four|Five|Ten) (?:${DIR} )?((?:(?:${CAPW}|${ORD}|\\d{1,3}|${LOWW}|&) ){0,3}(?:${CAPW}|${ORD}|\\d{1,3}|${LOWW}) )(?:${EN_TYPE})(?![\\p{L}\\d])\\.?(?: ${DIR}(?![\\p{L}\\d])\\.?)?`,
  'gu',
);
const EN_HIGHWAY = new RegExp(
  `(?<![\\p{L}\\d.,-])(?:${NUM} )?(?:(?:US|U\\.S\\.|State|County|Interstate|SR|CR|FM|Old|OLD) )?(?:(?:Highway|Hwy|Route|Rte|Road|Rd|HIGHWAY|HWY|ROUTE)(?: No\\.?| #)? \\d{1,4}|(?<=\\d )(?:SR|CR|FM|US|I-) ?\\d{1,4})(?![\\p{L}\\d])`,
  'gu',
);
// A street written without its type ("111 W Washington", "10 S. LaSalle") or without its number ("Drum
// Point Road", "Stocks Ln"): an address only when a US state and ZIP or a British postcode follow.
const EN_UNTYPED = new RegExp(
  `(?<![\\p{L}\\d.,-])${NUM} (?:${DIR} )?(?:${CAPW}|${ORD})(?: (?:${CAPW}|${ORD})){0,2}(?= ?,| \\d| ?\\n)`,
  'gu',
);
const EN_UNNUMBERED = new RegExp(
  `(?<![\\p{L}\\d.,'’-])(?:${CAPW} ){1,3}(?:${EN_TYPE})(?![\\p{L}\\d])\\.?(?: ${DIR}(?![\\p{L}\\d])\\.?)?(?=,| ?\\n)`,
  'gu',
);
const PO_BOX = new RegExp(
  `(?<![\\p{L}\\d])(?:P\\.? ?O\\.? ?Box|PO BOX|Post Office Box|POB|Postfach|Case postale|Casella postale|Boîte postale|[Rr][Rr] ?#? ?\\d{1,3},? [Bb]ox) ?#? ?\\d{1,7}(?![\\p{L}\\d])`,
  'gu',
);
// US forces' addresses: "PSC 1234, Box 5678", "Unit 2050 Box 4190", "USNS Comfort", then APO/FPO/DPO AA/AE/AP.
const MILITARY = new RegExp(
  `(?<![\\p{L}\\d])(?:(?:PSC|CMR|Unit) \\d{3,5},? Box \\d{1,5}|(?:USNS|USNV|USS|USCGC) ${CAPW}(?: ${CAPW})?)`,
  'gu',
);

const DE_STREET = new RegExp(
  `(?<![\\p{L}\\d-])(?:${CAPW}[ -]){0,2}(?:[${UP}][\\p{L}.-]{0,40}?(?:${alternation(DE_SUFFIXES)})|(?:${alternation(DE_WORDS)})) ${NUM}(?![\\p{L}\\d])`,
  'gu',
);
// A German street line ends with its type and a number: "…strasse 12", "Weg 3". An /i scan of the whole text
// for every type (the test this replaces) cost more than the street shape itself on 4.5 KB of prose; the
// places where a space comes before a digit are few, and the type is looked for only before them.
const DE_TYPE_BEFORE = new RegExp(`(?:${alternation([...DE_SUFFIXES, ...DE_WORDS])})$`, 'i');
const DE_TYPE_LONGEST = Math.max(...[...DE_SUFFIXES, ...DE_WORDS].map((w) => w.length));

/** Whether some street type (any case) stands right before a space and a digit. */
function germanStreetHint(text: string): boolean {
  for (let q = text.indexOf(' '); q >= 0; q = text.indexOf(' ', q + 1)) {
    const next = text.charCodeAt(q + 1);
    if (next < 48 || next > 57) continue;
    if (DE_TYPE_BEFORE.test(text.slice(Math.max(0, q - DE_TYPE_LONGEST), q))) return true;
  }
  return false;
}

// A German street named by a preposition and article with no street-type ending ("Am Bach 5", "Zur Linde
// 3", "An der Alten Mühle 7", "Auf dem Berg 2/1"): one or two capitalised name words (1), then a house number
// of at most three digits (2) that is no decimal, date or time ("Am Montag 5.3.", "Im Jahr 2020"). The same
// openings begin phrases of time and quantity, so this shape has its own confidence rules (see confidence).
// (The word-start test follows the opening words rather than preceding them: a regex that opens with its
// literal words is scanned for them at a third of the cost of one that opens with a look-behind.)
const DE_NAMED = new RegExp(
  `(?:${alternation(DE_LEADING)})(?<=(?:^|[^\\p{L}\\d-])(?:${alternation(DE_LEADING)})) (${CAPW}(?: ${CAPW})?) (\\d{1,3}(?:[-/]\\d{1,3}){0,2}(?: ?[a-z](?![\\p{L}\\d]))?)(?![\\p{L}\\d]|[.,:]\\d)`,
  'gu',
);
const DE_NAMED_HINT = new RegExp(`(?:${alternation(DE_LEADING)}) [${UP}]`);
// What a house number is not followed by: a noun or a number ("Am Montag 5 Personen", "Im Raum 12 3"), a unit
// or a currency ("Im Schnitt 5 km", "Zum Preis 20 €").
const NOT_AFTER_HOUSE_NUMBER =
  /^ ?(?:[\p{Lu}\d%€$£]|(?:km|kg|cm|mm|m|g|l|ml|min|h|uhr|mal|stück|prozent|euro|eur|chf|fr|sek|jahre?n?|tage?n?|leute|personen)(?![\p{L}]))/u;
// The address words of German text beside the shared ones ("wohnt", "Wohnort", "Zustelladresse", "Sitz").
const DE_ADDRESS_CONTEXT = /(?:wohn(?:t|en|ort|sitz)|zustell|firmensitz|sitz der|postanschrift|umzug)/i;

const FR_PARTICLE = "(?:de la |de l['’]|du |des |de |d['’]|la |le |les |l['’]|aux |au |en )";
const FR_TYPE = cased(FR_TYPES);
const FR_STREET = new RegExp(
  `(?<![\\p{L}\\d.,-])${NUM}(?: ?(?:bis|ter|quater|B|T))?,? (?:${FR_TYPE}) ${FR_PARTICLE}?(?:${CAPW}|\\d{1,3}|[XVI]{1,5}e)(?: ${FR_PARTICLE}?(?:${CAPW}|[XVI]{1,5}e)){0,4}`,
  'gu',
);
/**
 * Words of `alternation` that start a word: `(?<![\p{L}\d])(?:alternation)`, written with the words first and
 * the test of the character before them after, on the very words just read (the back-reference: a longer
 * word of the list that ends there cannot stand in for them). The same matches; but a regex that opens
 * with its literal words is scanned for them, where one that opens with a look-behind runs it at every
 * character: the Italian and the type-first French shapes cost a third and two thirds of what they did on
 * 4.5 KB conversations.
 */
function atWordStart(alternation: string): string {
  return `(?<lead>${alternation})(?<=(?:^|[^\\p{L}\\d])\\k<lead>)`;
}

// Swiss and Belgian French, and street lines without a number: the type first, the number after.
const FR_TYPE_FIRST = new RegExp(
  `${atWordStart(FR_TYPE)} ${FR_PARTICLE}?${CAPW}(?: ${FR_PARTICLE}?${CAPW}){0,4}(?: ${NUM}(?![\\p{L}\\d]))?`,
  'gu',
);

const IT_PARTICLE = "(?:dei |degli |delle |della |dello |del |di |da |d['’]|de |dell['’])";
const IT_TYPE = cased(IT_TYPES);
const IT_STREET = new RegExp(
  `${atWordStart(IT_TYPE)} ${IT_PARTICLE}?(?:${CAPW}|\\d{1,2})(?: ${IT_PARTICLE}?${CAPW}){0,3}(?:,? (?:n\\. ?|n° ?)?${NUM}(?![\\p{L}\\d]))?`,
  'gu',
);

// A name and a number with nothing typed ("Witthau 3"): an address only when a valid postcode follows.
const BARE_STREET = new RegExp(
  `(?<![\\p{L}\\d])${CAPW}(?: ${CAPW})? \\d{1,3}[a-z]?(?=,? ?\\n?\\s*(?:[A-Z]{1,2}-)?\\d{4,5} [${UP}])`,
  'gu',
);

const STATE_CODES = alternation([...US_STATES.keys()]);
const STATE_NAMES = alternation([...US_STATES.values()]);
const CITY = `(?:${CAPW}|${LOWW})(?: (?:${CAPW}|${LOWW})){0,3}`;
const CAP_CITY = `${CAPW}(?:[ -](?!CEDEX|Cedex)(?:${CAPW}|sur|sous|le|la|les|de|du|am|an|der|im|bei|di|del|upon|on|en)){0,3}`;
const STATE = `(?:${STATE_CODES}|${STATE_NAMES}|N\\.Y\\.|D\\.C\\.|D\\.C|[A-Z]\\.[A-Z]\\.)`;
const ZIP = '\\d{5}(?:-\\d{4})?';
const EU_PREFIX = '(?:(?:CH|D|DE|A|AT|F|FR|I|IT|L|B|FL)-)?';
const UNIT = `(?:(?:${cased(UNIT_WORDS)})\\.? ?#? ?(?:[A-Za-z]?\\d{1,6}[A-Za-z]?|[A-Z](?![\\p{L}\\d])|(?:[a-z]|[ivx]{1,4})\\)?)(?:[-/]\\d{1,4})?|${ORD} (?:Floor|Fl\\.?|Flr\\.?|FLOOR|FLR|FL|floor|flr)|(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Ground|Top) (?:Floor|floor)|\\d{1,2}(?:\\.|e|er|ème|°)? ?(?:Stock|étage|OG|piano|Etage)|c/o ${CAPW}(?: ${CAPW})?)(?![\\p{L}\\d])`;

type Tail = 'postal' | 'place' | 'unit';

// What may follow a street line, each anchored where the previous part ended (sticky).
const TAIL_PARTS: Array<[RegExp, Tail]> = [
  [new RegExp(UNIT, 'uy'), 'unit'],
  // US: city, state and ZIP ("Palo Alto, CA 94303", "Brooklyn, N.Y., 11216", "APO AE 09012").
  [new RegExp(`${CITY},? ${STATE},? ${ZIP}(?![\\p{L}\\d])`, 'uy'), 'postal'],
  [new RegExp(`${STATE},? ${ZIP}(?![\\p{L}\\d])`, 'uy'), 'postal'],
  // (A town after the digits makes them a European postcode: "Hinterhaus, 20095 Hamburg".)
  [new RegExp(`${CITY},? ${ZIP}(?![\\p{L}\\d-])(?! [${UP}])`, 'uy'), 'postal'],
  // British town (and county) and postcode, or the postcode and town.
  [new RegExp(`(?:${CAP_CITY},? ){0,2}${UK_POSTCODE}(?![\\p{L}\\d])`, 'uy'), 'postal'],
  [new RegExp(`${UK_POSTCODE}(?: ${CAP_CITY})?(?![\\p{L}\\d])`, 'uy'), 'postal'],
  // European postcode and town, with an Italian province or CEDEX after it.
  [
    new RegExp(
      `${EU_PREFIX}(\\d{4,5}) ${CAP_CITY}(?: \\(?[A-Z]{2}\\)?(?![\\p{L}\\d]))?(?: CEDEX(?: \\d{1,2})?| Cedex(?: \\d{1,2})?)?`,
      'uy',
    ),
    'postal',
  ],
  [new RegExp(`ZIP ${ZIP}`, 'uy'), 'postal'],
  [new RegExp(`(?:${alternation(COUNTRIES)})(?![\\p{L}\\d])`, 'uy'), 'place'],
  // A town alone after a comma ("12 Main Street, Springfield"), and a US city with its state only.
  [new RegExp(`${CAP_CITY},? (?:${STATE_CODES})(?![\\p{L}\\d])`, 'uy'), 'place'],
];
const TOWN_ONLY = new RegExp(`${CAP_CITY}(?![\\p{L}\\d])`, 'uy');
const SEPARATOR = /(?:[ \t]*,[ \t]*(?:\r?\n[ \t]*)*|[ \t]*(?:\r?\n[ \t]*){1,2}|[ \t]+[-–][ \t]+|[ \t]+)/y;
const MAX_PARTS = 6;

// A European postcode group must be a real postcode of one of the countries.
function validTail(m: RegExpExecArray): boolean {
  const code = m[1];
  if (code === undefined) return true;
  const prefix = /^([A-Z]{1,2})-/.exec(m[0]);
  return validEuropeanPostcode(code, prefix ? prefix[1]! : '');
}

function matchAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** Follows the address over the parts after its street line; returns the new end and the kinds found. */
function extendTail(text: string, end: number, budget = MAX_PARTS): { end: number; kinds: Set<Tail> } {
  const kinds = new Set<Tail>();
  let at = end;
  // One budget of parts for the whole address, the look-ahead after a lone town included: bounded work.
  for (let n = 0; n < budget; n++) {
    const sep = matchAt(SEPARATOR, text, at);
    const from = sep ? at + sep[0].length : at;
    if (from === at && at !== end) break;
    let found: [RegExpExecArray, Tail] | null = null;
    for (const [re, kind] of TAIL_PARTS) {
      const m = matchAt(re, text, from);
      if (m && validTail(m)) {
        found = [m, kind];
        break;
      }
    }
    // A town alone counts only when something postal or a country follows it.
    if (!found && sep && /[,\n]/.test(sep[0])) {
      const town = matchAt(TOWN_ONLY, text, from);
      if (town) {
        const after = extendTail(text, from + town[0].length, budget - n - 1);
        if (after.kinds.has('postal') || after.kinds.has('place')) {
          for (const k of after.kinds) kinds.add(k);
          return { end: after.end, kinds };
        }
      }
    }
    if (!found) break;
    kinds.add(found[1]);
    at = from + found[0][0].length;
  }
  return { end: at, kinds };
}

const HEAD_UNIT = `(?:(?:${cased(UNIT_WORDS.filter((w) => /^\p{L}/u.test(w)))})\\.? ?#? ?[A-Za-z]?\\d{1,5}[A-Za-z]?|# ?\\d{1,6}|${ORD} (?:Floor|Fl\\.?|floor))`;
const HEAD_BUILDING = `${CAPW}(?: ${CAPW}){0,2} (?:Building|House|Court|Tower|Centre|Center|Hall|Mansions|Lodge|Cottage|Residence|Haus|Hof|Palazzo|Résidence|Immeuble)`;
const HEAD_LINE = new RegExp(
  `(?:^|[\\s,;:(])((?:${HEAD_UNIT}|${HEAD_BUILDING})(?:[ \\t]*,[ \\t]*|[ \\t]*\\r?\\n[ \\t]*))$`,
  'u',
);

// Up to two unit or building lines right before the street ("Flat 14, Ziggurat Building, 60-66 Saffron Hill").
function extendHead(text: string, start: number): number {
  let at = start;
  for (let n = 0; n < 2; n++) {
    const m = HEAD_LINE.exec(text.slice(Math.max(0, at - 50), at));
    if (!m) break;
    at -= m[1]!.length;
  }
  return at;
}

const ADDRESS_CONTEXT =
  /(?:address|adresse|indirizzo|anschrift|wohnhaft|domicil|live[sd]? (?:at|in|on)|living at|located at|based at|habite|wohne|abito|resid|ship|deliver|livr|liefer|consegn|send|mail|envoy|schick|spedi|visit|office|bureau|büro|ufficio|moved to|umgezogen|déménagé|trasferit)/i;

// Broad types that are also ordinary words ("5 Park", "3 Lights"): alone they need a context word.
const BROAD_TYPES = new Set(
  'park lake center centre club union key light lights station mission spring springs river forest fort port ports point view views rest run pass field fields mill mills green common well wells course cove loaf lock locks'.split(
    ' ',
  ),
);
const FUNCTION_WORDS = new Set(
  'the a an of to my your our his her their and or in on at for with from by down up this that these those is are was were it i we you they me us more than about over under per each'.split(
    ' ',
  ),
);

// A number and a name with no street type ("41 Kingsway"): an address only before a British postcode.
const BARE_EN = new RegExp(
  `(?<![\\p{L}\\d.,-])${NUM} ${CAPW}(?: ${CAPW}){0,2}(?=,? ?(?:\\r?\\n)?(?:${CAP_CITY},? ?(?:\\r?\\n)?){0,2}${UK_POSTCODE}(?![\\p{L}\\d]))`,
  'gu',
);

type Shape =
  | 'untyped'
  | 'unnumbered'
  | 'bare-en'
  | 'en'
  | 'highway'
  | 'box'
  | 'military'
  | 'de'
  | 'de-named'
  | 'fr'
  | 'fr-type-first'
  | 'it'
  | 'bare';

// Cheap necessary conditions in front of the dear shapes (each shape regex costs a scan of the text, about
// 0.01–0.02 ms per KB): a text without them cannot hold a match that counts, so skipping the shape changes
// no finding. A postal tail (the only support of the bare, untyped and unnumbered shapes) needs a European
// postcode before its town ("8001 Zürich"), a US ZIP after a state or town ("CA 94303", "Springfield, 62704")
// or a British postcode; a highway needs its word and number ("Route 66", "Hwy No. 9") or a route code after
// a number ("1200 SR 7").
const EU_POSTCODE_HINT = new RegExp(`\\d{4,5} [${UP}]`, 'u');
// Every ZIP of a tail follows a space ("CA 94303", "Springfield, 62704", "ZIP 10001").
const ZIP_HINT = / \d{5}/;
const UK_POSTCODE_HINT = new RegExp(UK_POSTCODE);

/** The postal hints of one text, each tested at most once, and only when a shape asks for it. */
class PostalHints {
  readonly #text: string;
  #eu: boolean | undefined;
  #zip: boolean | undefined;
  #uk: boolean | undefined;
  constructor(text: string) {
    this.#text = text;
  }
  eu(): boolean {
    this.#eu ??= EU_POSTCODE_HINT.test(this.#text);
    return this.#eu;
  }
  uk(): boolean {
    this.#uk ??= UK_POSTCODE_HINT.test(this.#text);
    return this.#uk;
  }
  any(): boolean {
    if (this.eu()) return true;
    this.#zip ??= ZIP_HINT.test(this.#text);
    return this.#zip || this.uk();
  }
}

const HIGHWAY_HINT =
  /(?:Highway|Hwy|Route|Rte|Road|Rd|HIGHWAY|HWY|ROUTE)(?: No\.?| #)? \d|\d (?:SR|CR|FM|US|I-) ?\d/;

const SHAPES: Array<[RegExp, Shape, ((text: string, postal: PostalHints) => boolean) | null]> = [
  [EN_STREET, 'en', null],
  [EN_HIGHWAY, 'highway', (t) => HIGHWAY_HINT.test(t)],
  [PO_BOX, 'box', (t) => /box|postfach|postale/i.test(t)],
  [MILITARY, 'military', (t) => /PSC|CMR|Unit|US[NSC]/.test(t)],
  [DE_STREET, 'de', germanStreetHint],
  [DE_NAMED, 'de-named', (t) => DE_NAMED_HINT.test(t)],
  [FR_STREET, 'fr', null],
  [FR_TYPE_FIRST, 'fr-type-first', null],
  [IT_STREET, 'it', null],
  [BARE_STREET, 'bare', (_, postal) => postal.eu()],
  [BARE_EN, 'bare-en', (_, postal) => postal.uk()],
  [EN_UNTYPED, 'untyped', (_, postal) => postal.any()],
  [EN_UNNUMBERED, 'unnumbered', (_, postal) => postal.any()],
];

// A final dot belongs to an abbreviation ("Main St.", "Washington, D.C."), not to a town ("8001 Zürich.").
const ABBREVIATION_END = new RegExp(
  '(?:^|[^\\p{L}])(?:St|Ave|Av|Rd|Ln|Dr|Blvd|Ct|Pl|Sq|Ter|Terr|Cres|Gdns|Pkwy|Hwy|Hgwy|Cir|Trl|Aly|Plz|Expy|Fwy|Tpke|Cswy|Xing|Lndg|Pt|Rdg|Vw|Vlg|Hts|Holw|Jct|Mnr|Mdws|Sta|Vly|Byp|Brg|Ctr|Ext|Rte|[A-Za-z]|Apt|Ste|Fl|Rm|Bldg|Dept|Bd|Ch|Imp|Esc|Int|Loc|Fraz|Str)$',
  'u',
);

function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  for (;;) {
    while (e > start && /[\s,;:-]/.test(text[e - 1]!)) e--;
    if (
      e > start &&
      text[e - 1] === '.' &&
      !ABBREVIATION_END.test(text.slice(Math.max(start, e - 8), e - 1))
    ) {
      e--;
      continue;
    }
    return e;
  }
}

/**
 * Whether a match stands on a line of its own in a block of several lines (a letterhead, a form): "Hans
 * Meier\nAm Bach 5\nLindau". A line before or after it that is not empty makes the block.
 */
function ownLineInBlock(text: string, start: number, end: number): boolean {
  // Only 200 characters each side are read (a street line and its neighbours are short): bounded work.
  const head = text.slice(Math.max(0, start - 200), start).split('\n');
  const tail = text.slice(end, end + 200).split('\n');
  const linesBefore = head.length - 1;
  const linesAfter = tail.length - 1;
  if (head[linesBefore]!.trim() !== '' || tail[0]!.replace(/[\s,;]/g, '') !== '') return false;
  return (
    (linesBefore > 0 && head[linesBefore - 1]!.trim() !== '') || (linesAfter > 0 && tail[1]!.trim() !== '')
  );
}

/**
 * "Am Bach 5" and "Am Montag 5" have one shape: a street named by a preposition counts only with a postcode
 * and town after it (0.92), or, when its number ends the phrase, with a unit or country after it, an address
 * word before it ("wohnhaft", "Anschrift", "Lieferadresse") or a line of its own in a multi-line block (0.85).
 * A name that is a word of time, place or quantity ("Im Jahr", "Am Montag", "Im Raum") never counts.
 */
function deNamedConfidence(text: string, m: RegExpExecArray, kinds: Set<Tail>, context: boolean): number {
  const words = (m[1] ?? '').split(' ');
  if (words.some((w) => DE_NOT_STREET.has(w.toLowerCase()))) return 0;
  if (kinds.has('postal')) return 0.92;
  const end = m.index + m[0].length;
  if (NOT_AFTER_HOUSE_NUMBER.test(text.slice(end, end + 12))) return 0;
  if (kinds.size > 0 || context || contextBefore(text, m.index, DE_ADDRESS_CONTEXT, 60)) return 0.85;
  return ownLineInBlock(text, m.index, end) ? 0.85 : 0;
}

/** The confidence of a street line of this shape, given what followed it; 0 when it is no address. */
function confidence(text: string, shape: Shape, m: RegExpExecArray, kinds: Set<Tail>): number {
  const postal = kinds.has('postal');
  const context = contextBefore(text, m.index, ADDRESS_CONTEXT, 60);
  const support = postal ? 0.92 : kinds.size > 0 || context ? 0.85 : 0;
  switch (shape) {
    case 'en': {
      const words = (m[1] ?? '').trim().split(' ');
      const typeWord = m[0].slice(m[0].lastIndexOf(' ') + 1).replace(/\.$/, '');
      if (words.some((w) => FUNCTION_WORDS.has(w.toLowerCase()))) return postal ? 0.85 : 0;
      const lower = /^\p{Ll}/u.test(typeWord) || words.some((w) => /^\p{Ll}/u.test(w));
      if (lower) return postal ? 0.9 : kinds.size > 0 && context ? 0.75 : 0;
      if (support > 0) return support;
      const broad = BROAD_TYPES.has(m[0].split(' ').pop()!.toLowerCase().replace(/\.$/, ''));
      return broad ? 0 : 0.75;
    }
    case 'fr':
    case 'de':
    case 'it':
      // Italian and type-first French lines need their number or a postcode.
      if (shape === 'it' && !/\d/.test(m[0]) && !postal) return 0;
      return support || 0.8;
    case 'de-named':
      return deNamedConfidence(text, m, kinds, context);
    case 'fr-type-first':
      return postal ? 0.92 : /\d$/.test(m[0]) && (kinds.size > 0 || context) ? 0.85 : 0;
    case 'highway':
    case 'box':
      return support || 0.75;
    case 'military':
      return postal ? 0.92 : 0;
    case 'bare':
    case 'bare-en':
    case 'untyped':
    case 'unnumbered':
      return postal ? 0.85 : 0;
  }
}

export function detectAddresses(text: string): Candidate[] {
  const out: Candidate[] = [];
  const postal = new PostalHints(text);
  for (const [re, shape, hint] of SHAPES) {
    if (hint !== null && !hint(text, postal)) continue;
    for (const m of matchesOf(re, text)) {
      const streetEnd = trimEnd(text, m.index, m.index + m[0].length);
      const { end, kinds } = extendTail(text, streetEnd);
      const conf = confidence(text, shape, m, kinds);
      if (conf === 0) continue;
      const start = extendHead(text, m.index);
      out.push(
        candidate('ADDRESS', 'PERSONAL', text, start, trimEnd(text, start, end), conf, `address:${shape}`),
      );
    }
  }
  return out;
}
