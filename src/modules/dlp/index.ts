export { createDlpService } from './dlp.service.js';
export type { DlpPublish, DlpService } from './dlp.service.js';
export { createVault, REVALIDATE_MS, SESSION_ID } from './vault.service.js';
export type { TokenizeOutcome, Vault, VaultSession } from './vault.service.js';
export { detectOptionsOf, dlpSettingsOf, type PatternBundle, patternBundleOf } from './dlp.settings.js';
export type { DlpSettings } from './dlp.settings.js';
export {
  blankPersonalData,
  dlpEventData,
  dlpPreview,
  EventRedactor,
  eventDetectOptions,
  eventUserAgent,
  severityOf,
} from './dlp.events.js';
export { dlpRoutes } from './dlp.routes.js';
