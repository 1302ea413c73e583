export { createVerifierRepo, type VerifierDb, type VerifierRepo } from './verifier.repo.js';
export {
  createVerifierService,
  KEY_PREFIX,
  makeKey,
  type KeyRole,
  type SourceInput,
  type SourceView,
  type VerifierService,
  type VerifierServiceOptions,
  type VerifyInput,
  type VerifyResult,
} from './verifier.service.js';
export { verifierRoutes } from './verifier.routes.js';
export { installVerifierAuth, type VerifierRateLimits } from './verifier.auth.js';
export { startScheduler, type Scheduler } from './scheduler.js';
export { type LlmModel, parseModels, CONSENSUS_PROMPT, consensusMessages } from './consensus.js';
export { consensus, tally, TRUST, RECOMMENDED_MODELS, type Vote } from './trust.js';
export { MAX_LLMS, MIN_LLMS } from './verifier.schemas.js';
export { parseCsv, parseFile } from './connectors/index.js';
export { toPassages } from './passages.js';
export {
  CLOUD_SSH_PORTS,
  type CloudTunnel,
  fingerprint,
  openCloudTunnel,
  readRegistration,
  register,
  type Registration,
} from './tunnel.js';
export { createLicenceGate, LICENCE_GRACE_MS, type LicenceGate, type LicenceState } from './licence.js';
export {
  createPatternUpdater,
  type PatternBundle,
  type PatternUpdater,
  startPatternUpdates,
  type StoredPatterns,
} from './patterns.js';
