// Weights of the proof document's risk score, per DLP entity type (spec: "Proof document").
export const RISK_WEIGHTS: Readonly<Record<string, number>> = {
  CVV: 40,
  CARD: 35,
  PASSWORD: 35,
  IBAN: 30,
  API_KEY: 30,
  AVS: 25,
  SSN: 25,
  NINO: 25,
  NIR: 25,
  IT_FISCAL_CODE: 25,
  DE_TAX_ID: 25,
  DRIVING_LICENCE: 20,
  PASSPORT: 20,
  PHONE: 15,
  ADDRESS: 15,
  BIRTH_DATE: 10,
  EMAIL: 10,
  NAME: 5,
};

/** Weight of a type the table does not name (custom patterns): the lowest, so it counts but never dominates. */
export const DEFAULT_WEIGHT = 5;
