export { createHallucinationService, CORRECTIONS_CACHE_TTL_MS } from './hallucination.service.js';
export { createLlmJudge, type LlmJudge, type ProviderCredentials } from './llm-judge.js';
export type {
  CheckAnswer,
  CheckMode,
  CorrectionInput,
  HallucinationSettings,
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
