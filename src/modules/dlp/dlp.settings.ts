import {
  type CustomPattern,
  canonicalType,
  customTypeName,
  type DetectOptions,
  ENTITY_TYPES,
  isPhoneRegion,
  validateCustomPattern,
} from '../../engines/dlp/index.js';
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

/** The closed lists DLP settings refer to: built-in entity types (aliases accepted) and data domains. */
const BUILT_IN_TYPES: ReadonlySet<string> = new Set(ENTITY_TYPES.map((t) => t.type));
const DOMAINS: readonly string[] = [
  'PERSONAL',
  'FINANCIAL',
  'IDENTITY',
  'CREDENTIALS',
  'CORPORATE',
  'HEALTH',
];

const refuse = (field: string, why: string) => new AppError('invalid_request', `The field '${field}' ${why}`);

/**
 * Refuses settings that name what does not exist, or that would switch protection off without saying so
 * (`types: []`, a misspelt type, ignoring every type), with the field named; returns them with type names
 * in their canonical spelling, so that every consumer compares like with like.
 */
export function checkDlpSettings(s: DlpSettings): DlpSettings {
  // The schema checks the shape (two capitals); a code libphonenumber does not know (ZZ, UK, EU) was stored
  // and then silently ignored by every analysis.
  if (s.phoneRegion !== undefined && !isPhoneRegion(s.phoneRegion)) {
    throw refuse(
      'phoneRegion',
      `'${s.phoneRegion}' is not a region of the phone number metadata; send an ISO 3166 alpha-2 code such as CH, DE, FR, GB or US.`,
    );
  }
  const patterns = s.customPatterns ?? [];
  if (patterns.length > MAX_CUSTOM_PATTERNS) {
    throw refuse('customPatterns', `may hold at most ${MAX_CUSTOM_PATTERNS} patterns.`);
  }
  const customTypes = new Set<string>();
  patterns.forEach((p, i) => {
    if (!DOMAINS.includes(p.domain)) {
      throw refuse(`customPatterns[${i}].domain`, `must be one of ${DOMAINS.join(', ')}.`);
    }
    const verdict = validateCustomPattern(p);
    if (!verdict.ok) {
      const field = verdict.reason.startsWith('name')
        ? 'name'
        : verdict.reason.startsWith('flags')
          ? 'flags'
          : 'regex';
      throw refuse(`customPatterns[${i}].${field}`, `(pattern '${p.name}') is refused: ${verdict.reason}.`);
    }
    const type = customTypeName(p.name);
    if (BUILT_IN_TYPES.has(canonicalType(type)) || customTypes.has(type)) {
      throw refuse(`customPatterns[${i}].name`, `'${p.name}' is already the name of another type.`);
    }
    customTypes.add(type);
  });

  const known = (field: string, list: string[] | undefined): string[] | undefined => {
    if (list === undefined) return undefined;
    return [
      ...new Set(
        list.map((raw, i) => {
          const type = canonicalType(raw);
          if (!BUILT_IN_TYPES.has(type) && !customTypes.has(type)) {
            throw refuse(
              `${field}[${i}]`,
              `names an unknown type '${raw}'; GET /api/v1/dlp/types lists them (custom pattern names count too).`,
            );
          }
          return type;
        }),
      ),
    ];
  };
  const types = known('types', s.types);
  const ignoreTypes = known('ignoreTypes', s.ignoreTypes);
  const blockTypes = known('blockTypes', s.blockTypes);
  const ignored = new Set(ignoreTypes);
  const active = (types ?? [...BUILT_IN_TYPES, ...customTypes]).filter((t) => !ignored.has(t));
  if (types !== undefined && types.length === 0) {
    throw refuse('types', 'is empty, which would detect nothing; omit it to detect every type.');
  }
  if (active.length === 0) {
    throw refuse('ignoreTypes', 'leaves no type to detect; personal data would reach the model.');
  }
  const unseen = blockTypes?.find((t) => !active.includes(t));
  if (unseen !== undefined) {
    throw refuse(
      'blockTypes',
      `names '${unseen}', which the settings do not detect, so it could never block.`,
    );
  }
  return {
    ...s,
    ...(types ? { types } : {}),
    ...(ignoreTypes ? { ignoreTypes } : {}),
    ...(blockTypes ? { blockTypes } : {}),
  };
}

/**
 * What an on-premise verifier needs of the organization's DLP settings to tokenize claims the way the cloud
 * does (docs/verifier.md, "Pattern updates"): detection scope, allow-values, custom patterns, phone region.
 * Block types and session lifetimes are the cloud's business and stay out.
 */
export interface PatternBundle {
  /** Changes whenever the content does (a hash of it): the verifier applies a bundle once. */
  version: string;
  /** The release whose built-in detectors the bundle was made for. */
  engineVersion: string;
  detect: Pick<DlpSettings, 'types' | 'ignoreTypes' | 'allowValues' | 'customPatterns' | 'phoneRegion'>;
}

export function patternBundleOf(
  settings: Record<string, unknown>,
  engineVersion: string,
  hash: (text: string) => string,
): PatternBundle {
  const s = dlpSettingsOf(settings);
  const detect: PatternBundle['detect'] = {
    ...(s.types ? { types: s.types } : {}),
    ...(s.ignoreTypes ? { ignoreTypes: s.ignoreTypes } : {}),
    ...(s.allowValues ? { allowValues: s.allowValues } : {}),
    ...(s.customPatterns ? { customPatterns: s.customPatterns } : {}),
    ...(s.phoneRegion ? { phoneRegion: s.phoneRegion } : {}),
  };
  const version = hash(JSON.stringify({ engineVersion, detect })).slice(0, 16);
  return { version, engineVersion, detect };
}
