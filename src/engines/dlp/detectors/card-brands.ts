// Issuer ranges (IIN prefixes) and lengths of the payment card brands in use, from the brands' public
// range tables. A number is a card only if Luhn holds and a brand claims both its prefix and its length.
interface Brand {
  name: string;
  /** inclusive prefix ranges, compared on as many leading digits as the bounds have */
  ranges: ReadonlyArray<readonly [number, number]>;
  lengths: readonly number[];
}

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const CARD_BRANDS: readonly Brand[] = [
  { name: 'visa', ranges: [[4, 4]], lengths: [13, 16, 19] },
  {
    name: 'mastercard',
    ranges: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
  },
  {
    name: 'amex',
    ranges: [
      [34, 34],
      [37, 37],
    ],
    lengths: [15],
  },
  {
    name: 'discover',
    ranges: [
      [6011, 6011],
      [644, 649],
      [65, 65],
      [622126, 622925],
    ],
    lengths: span(16, 19),
  },
  {
    name: 'diners',
    ranges: [
      [300, 305],
      [3095, 3095],
      [36, 36],
      [38, 39],
    ],
    lengths: span(14, 19),
  },
  { name: 'jcb', ranges: [[3528, 3589]], lengths: span(16, 19) },
  {
    name: 'unionpay',
    ranges: [
      [62, 62],
      [81, 81],
    ],
    lengths: span(16, 19),
  },
  {
    name: 'maestro',
    ranges: [
      [50, 50],
      [56, 69],
      [6759, 6759],
    ],
    lengths: span(12, 19),
  },
  { name: 'mir', ranges: [[2200, 2204]], lengths: span(16, 19) },
  {
    name: 'rupay',
    ranges: [
      [60, 60],
      [65, 65],
      [81, 82],
      [508, 508],
      [353, 353],
      [356, 356],
    ],
    lengths: [16],
  },
  { name: 'troy', ranges: [[9792, 9792]], lengths: [16] },
  {
    name: 'verve',
    ranges: [
      [506099, 506198],
      [650002, 650027],
    ],
    lengths: [16, 18, 19],
  },
  { name: 'uatp', ranges: [[1, 1]], lengths: [15] },
  { name: 'dankort', ranges: [[5019, 5019]], lengths: [16] },
  { name: 'interpayment', ranges: [[636, 636]], lengths: span(16, 19) },
  { name: 'instapayment', ranges: [[637, 639]], lengths: [16] },
  {
    name: 'elo',
    ranges: [
      [401178, 401179],
      [438935, 438935],
      [457631, 457632],
      [431274, 431274],
      [451416, 451416],
      [457393, 457393],
      [504175, 504175],
      [506699, 506778],
      [509000, 509999],
      [627780, 627780],
      [636297, 636297],
      [636368, 636368],
      [650031, 650033],
      [650035, 650051],
      [650405, 650439],
      [650485, 650538],
      [650541, 650598],
      [650700, 650718],
      [650720, 650727],
      [650901, 650978],
      [651652, 651679],
      [655000, 655019],
      [655021, 655058],
    ],
    lengths: [16],
  },
  { name: 'hipercard', ranges: [[606282, 606282]], lengths: [16, 19] },
];

/** The brand that claims this digit string (prefix and length), or null. */
export function cardBrand(digits: string): string | null {
  for (const brand of CARD_BRANDS) {
    if (!brand.lengths.includes(digits.length)) continue;
    for (const [from, to] of brand.ranges) {
      const width = String(from).length;
      const prefix = Number(digits.slice(0, width));
      if (prefix >= from && prefix <= to) return brand.name;
    }
  }
  return null;
}
