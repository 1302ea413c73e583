// Public surface of the DLP engine: pure TypeScript, deterministic, no I/O; runs in Node and in the extension.
export type { CustomPattern, DetectOptions, DlpDomain, Entity, EntityType } from './types.js';
export { detectEntities } from './detect.js';
export { customTypeName, validateCustomPattern } from './custom-patterns.js';
export { canonicalType, ENTITY_TYPES } from './entity-types.js';
export { isPhoneRegion } from './detectors/phones.js';
export { createTokenMap, type TokenMap } from './token-map.js';
export { tokenize, tokenizeEntities, listEntityTypes, type TokenizeResult } from './tokens.js';
export { rehydrate } from './rehydrate.js';
export { StreamingRehydrator } from './streaming.js';
export {
  anthropicDeltas,
  DeltaFields,
  type DeltaFormat,
  type DeltaRef,
  endsOf,
  type Released,
} from './delta-fields.js';
