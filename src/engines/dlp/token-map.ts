export interface TokenMap {
  byToken: Map<string, { type: string; value: string }>;
  /** Key: type + '\u0000' + canonical value (see canonicalValue). */
  byValue: Map<string, string>;
}

export function valueKey(type: string, value: string): string {
  return `${type}\u0000${canonicalValue(type, value)}`;
}

// Formatting variants of one value ("CH93 0076…" and "CH930076…", "Anna@X.ch" and "anna@x.ch") are the
// same datum and must share a token; rehydration returns the first spelling seen.
export function canonicalValue(type: string, value: string): string {
  switch (type) {
    case 'IBAN':
    case 'CARD':
    case 'AVS':
    case 'SSN':
    case 'NINO':
    case 'NIR':
    case 'IT_FISCAL_CODE':
    case 'DE_TAX_ID':
      return value.replace(/[\s.-]/g, '').toUpperCase();
    case 'PHONE':
      // Digits of every script (fold.ts), each kept as written: "+41 44…" and "＋４１ ４４…" are two spellings,
      // each restored as it was typed. With ASCII digits only, every number in another script had the key "+"
      // and shared one token, so rehydration gave back the first such number for all of them.
      return value.replace(/[^\p{Nd}+\uFF0B]/gu, '').replace(/^00/, '+');
    case 'EMAIL':
      return value.toLowerCase();
    case 'NAME':
    case 'ADDRESS':
      return value.replace(/\s+/g, ' ');
    default:
      return value;
  }
}

export function createTokenMap(
  entries: Array<{ token: string; type: string; value: string }> = [],
): TokenMap {
  const map: TokenMap = { byToken: new Map(), byValue: new Map() };
  for (const e of entries) {
    map.byToken.set(e.token, { type: e.type, value: e.value });
    const key = valueKey(e.type, e.value);
    if (!map.byValue.has(key)) map.byValue.set(key, e.token);
  }
  return map;
}
