import { type CustomPattern, type DetectOptions, validateCustomPattern } from '../../engines/dlp/index.js';
import { AppError } from '../../platform/errors/index.js';

/** Per-organization DLP settings, kept under `dlp` in the organization's settings (docs/dlp.md). */
export interface DlpSettings {
  /** Only these types are detected (all when absent). */
  types?: string[];
  ignoreTypes?: string[];
  /** Values never tokenized, e.g. the company's own name. */
  allowValues?: string[];
  customPatterns?: CustomPattern[];
  /** Types whose presence blocks a protected-chat or proxy request (dlp.blocked). */
  blockTypes?: string[];
  sessionTtlHours?: number;
  /** The organization's country (ISO 3166 alpha-2): national phone numbers are read in its format first. */
  phoneRegion?: string;
}

export const DEFAULT_SESSION_TTL_HOURS = 24;
export const MAX_CUSTOM_PATTERNS = 50;

export function dlpSettingsOf(settings: Record<string, unknown>): DlpSettings {
  const s = settings['dlp'];
  return s && typeof s === 'object' ? (s as DlpSettings) : {};
}

/** The engine's detection options for an organization's settings. */
export function detectOptionsOf(s: DlpSettings): DetectOptions {
  return {
    ...(s.types ? { types: s.types } : {}),
    ...(s.ignoreTypes ? { ignoreTypes: s.ignoreTypes } : {}),
    ...(s.allowValues ? { allowValues: s.allowValues } : {}),
    ...(s.customPatterns ? { customPatterns: s.customPatterns } : {}),
    ...(s.phoneRegion ? { phoneRegion: s.phoneRegion } : {}),
  };
}

export function checkDlpSettings(s: DlpSettings): void {
  for (const p of s.customPatterns ?? []) {
    const verdict = validateCustomPattern(p);
    if (!verdict.ok)
      throw new AppError('invalid_request', `Custom pattern '${p.name}' is refused: ${verdict.reason}`);
  }
  if ((s.customPatterns?.length ?? 0) > MAX_CUSTOM_PATTERNS) {
    throw new AppError('invalid_request', `At most ${MAX_CUSTOM_PATTERNS} custom patterns are allowed.`);
  }
}
