import type { Clock } from '../../platform/clock/index.js';
import type { DetectOptions } from '../../engines/dlp/index.js';
import type { VerifierRepo } from './verifier.repo.js';

/** Pattern updates are fetched with the licence checks (at start, then every 6 hours) and on demand. */
const SETTING = 'pattern_bundle';

/** The organization's DLP pattern bundle as the cloud serves it (POST /api/v1/license/patterns). */
export interface PatternBundle {
  version: string;
  engineVersion: string;
  detect: DetectOptions;
}

export interface StoredPatterns extends PatternBundle {
  fetchedAt: string;
}

export interface PatternUpdater {
  /** Asks the cloud through the tunnel (the licence key is the only thing sent) and stores what it answers. */
  update(): Promise<{ changed: boolean; patterns: StoredPatterns }>;
  /** The stored bundle (read on each use, so an update by the CLI applies to a running server). */
  current(): Promise<StoredPatterns | null>;
  /** Detection options for tokenizing claims: the organization's bundle, or the engine's defaults. */
  detectOptions(): Promise<DetectOptions>;
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

/** Only the fields the DLP engine reads, each checked for shape: a bundle never carries anything else. */
function readBundle(body: unknown): PatternBundle {
  const b = (body ?? {}) as Record<string, unknown>;
  const d = (b['detect'] ?? {}) as Record<string, unknown>;
  if (typeof b['version'] !== 'string' || typeof b['engineVersion'] !== 'string' || typeof d !== 'object')
    throw new Error('the cloud answered something that is not a pattern bundle');
  const patterns = Array.isArray(d['customPatterns'])
    ? (d['customPatterns'] as Array<Record<string, unknown>>).filter(
        (p) =>
          typeof p?.['name'] === 'string' &&
          typeof p['regex'] === 'string' &&
          typeof p['domain'] === 'string',
      )
    : undefined;
  const detect: DetectOptions = {
    ...(strings(d['types']) ? { types: strings(d['types'])! } : {}),
    ...(strings(d['ignoreTypes']) ? { ignoreTypes: strings(d['ignoreTypes'])! } : {}),
    ...(strings(d['allowValues']) ? { allowValues: strings(d['allowValues'])! } : {}),
    ...(patterns
      ? {
          customPatterns: patterns.map((p) => ({
            name: p['name'] as string,
            domain: p['domain'] as NonNullable<DetectOptions['customPatterns']>[number]['domain'],
            regex: p['regex'] as string,
            ...(typeof p['flags'] === 'string' ? { flags: p['flags'] } : {}),
          })),
        }
      : {}),
    ...(typeof d['phoneRegion'] === 'string' ? { phoneRegion: d['phoneRegion'] } : {}),
  };
  return { version: b['version'], engineVersion: b['engineVersion'], detect };
}

export function createPatternUpdater(opts: {
  repo: VerifierRepo;
  clock: Clock;
  licenceKey: string;
  tunnelBase: () => string | null;
  fetch?: typeof fetch;
}): PatternUpdater {
  const doFetch = opts.fetch ?? fetch;
  const current = async (): Promise<StoredPatterns | null> => {
    const stored = await opts.repo.getSetting(SETTING);
    return stored ? (JSON.parse(stored) as StoredPatterns) : null;
  };
  return {
    current,
    async detectOptions() {
      return (await current())?.detect ?? {};
    },
    async update() {
      if (!opts.licenceKey)
        throw new Error('no licence configured (PARAPET_VERIFIER_LICENSE): no pattern updates');
      const base = opts.tunnelBase();
      if (!base) throw new Error('no cloud tunnel: run `parapet verifier register` first');
      const res = await doFetch(`${base}/api/v1/license/patterns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: opts.licenceKey }),
        signal: AbortSignal.timeout(30_000),
      });
      if (res.status !== 200) {
        const detail = (await res.json().catch(() => ({}))) as { message?: string };
        throw new Error(
          `pattern update answered HTTP ${res.status}${detail.message ? `: ${detail.message}` : ''}`,
        );
      }
      const bundle = readBundle(await res.json());
      const before = await current();
      const at = opts.clock.now().toISOString();
      const patterns: StoredPatterns = { ...bundle, fetchedAt: at };
      await opts.repo.setSetting(SETTING, JSON.stringify(patterns), at);
      return { changed: before?.version !== bundle.version, patterns };
    },
  };
}

const UPDATE_EVERY_MS = 6 * 60 * 60 * 1000;

/** At start and every 6 hours, when a licence is configured (without one the verifier never calls the cloud). */
export function startPatternUpdates(
  updater: PatternUpdater,
  licensed: boolean,
  onError: (err: unknown) => void,
): { stop(): void } {
  if (!licensed) return { stop() {} };
  const run = () => void updater.update().catch(onError);
  run();
  const timer = setInterval(run, UPDATE_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
