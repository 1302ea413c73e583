export { createHallucinationService, CORRECTIONS_CACHE_TTL_MS } from './hallucination.service.js';
export type {
  CorrectionInput,
  CorrectionPage,
  HallucinationService,
  HallucinationServiceOptions,
  StoredCorrection,
} from './hallucination.service.js';
export { hallucinationRoutes } from './hallucination.routes.js';
export {
  CHECK_BODY_LIMIT,
  MAX_CORRECTIONS_PER_ORG,
  MAX_CORRECTION_FIELD_CHARS,
  MAX_PER_PAGE,
} from './hallucination.schemas.js';
