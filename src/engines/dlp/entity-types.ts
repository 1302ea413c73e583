export interface EntityTypeInfo {
  type: string;
  domain: string;
  description: string;
}

// The catalogue the API lists and the policy editor offers; the domain groups types for endpoint policies.
export const ENTITY_TYPES: readonly EntityTypeInfo[] = [
  {
    type: 'NAME',
    domain: 'PERSONAL',
    description: 'Person name (lexicons, honorifics, context cues, propagation)',
  },
  { type: 'EMAIL', domain: 'PERSONAL', description: 'E-mail address' },
  {
    type: 'PHONE',
    domain: 'PERSONAL',
    description: 'Phone number, international or national (CH, FR, DE, IT, GB, AT, BE, US)',
  },
  {
    type: 'ADDRESS',
    domain: 'PERSONAL',
    description: 'Postal address (street and number, optional postcode and town)',
  },
  { type: 'BIRTH_DATE', domain: 'PERSONAL', description: 'Date next to a birth context word' },
  { type: 'IBAN', domain: 'FINANCIAL', description: 'IBAN with country length and mod-97 checksum' },
  { type: 'CARD', domain: 'FINANCIAL', description: 'Payment card number (Luhn and brand ranges)' },
  { type: 'CVV', domain: 'FINANCIAL', description: 'Card security code next to a card or a context word' },
  { type: 'AVS', domain: 'IDENTITY', description: 'Swiss AVS/AHV number (756, EAN-13 check digit)' },
  { type: 'SSN', domain: 'IDENTITY', description: 'US Social Security number (invalid ranges excluded)' },
  { type: 'NINO', domain: 'IDENTITY', description: 'UK National Insurance number' },
  { type: 'NIR', domain: 'IDENTITY', description: 'French social security number (NIR) with its key' },
  { type: 'IT_FISCAL_CODE', domain: 'IDENTITY', description: 'Italian codice fiscale with its check letter' },
  {
    type: 'DE_TAX_ID',
    domain: 'IDENTITY',
    description: 'German tax id (Steuer-ID, ISO 7064 check digit) next to a context word',
  },
  { type: 'PASSPORT', domain: 'IDENTITY', description: 'Passport number next to a context word' },
  {
    type: 'DRIVING_LICENCE',
    domain: 'IDENTITY',
    description: 'Driving-licence number (context, or the UK format)',
  },
  { type: 'PASSWORD', domain: 'CREDENTIALS', description: 'Password after a context word, or in a URL' },
  {
    type: 'API_KEY',
    domain: 'CREDENTIALS',
    description: 'API key, token, JWT or private key (known prefixes, or high entropy after a context word)',
  },
];

// Other spellings of the same types (endpoint policies say CREDIT_CARD, NER corpora say PER).
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  CREDIT_CARD: 'CARD',
  BANK_CARD: 'CARD',
  CVC: 'CVV',
  AHV: 'AVS',
  NATIONAL_ID: 'SSN',
  CODICE_FISCALE: 'IT_FISCAL_CODE',
  STEUER_ID: 'DE_TAX_ID',
  DRIVER_LICENSE: 'DRIVING_LICENCE',
  DRIVING_LICENSE: 'DRIVING_LICENCE',
  PHONE_NUMBER: 'PHONE',
  EMAIL_ADDRESS: 'EMAIL',
  PERSON: 'NAME',
  PER: 'NAME',
  SECRET: 'API_KEY',
  DOB: 'BIRTH_DATE',
};

/** Upper-case type name with aliases resolved: "credit-card" and "CREDIT_CARD" both give "CARD". */
export function canonicalType(type: string): string {
  const upper = type.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return TYPE_ALIASES[upper] ?? upper;
}
