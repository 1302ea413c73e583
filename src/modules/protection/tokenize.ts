import { hash } from 'node:crypto';
import type { DetectOptions, Entity } from '../../engines/dlp/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import {
  type DlpSettings,
  detectOptionsOf,
  dlpEventData,
  dlpPreview,
  type Vault,
  type VaultSession,
} from '../dlp/index.js';
import { SecondChanceMap } from './second-chance.js';
import type { TextField } from './text-fields.js';

const FOUND_CACHE_LIMIT = 5_000;
const CACHEABLE_CHARS = 64 * 1024;
type Span = Omit<Entity, 'value'>;
/**
 * Where detection found something in a field, by a hash of the organization's settings and the text.
 * Conversations send their whole history with every turn, so most fields of a request were seen before;
 * only the new ones pay for detection. Keyed by hash and holding only types and offsets (values are read
 * back from the text itself), so the cache keeps no personal data.
 */
const foundCache = new SecondChanceMap<Span[]>(FOUND_CACHE_LIMIT);
const foundCounts = { hits: 0, misses: 0 };

/** How often a field's detection was answered from the cache (for metrics and tests). */
export function foundCacheStats(): { hits: number; misses: number; size: number } {
  return { ...foundCounts, size: foundCache.size };
}

interface SettingsKey {
  options: DetectOptions;
  /** SHA-256 of the detection options: the part of the cache key that says which settings found the spans. */
  hash: string;
}

const keyOf = (options: DetectOptions): SettingsKey => ({
  options,
  hash: hash('sha256', JSON.stringify(options), 'base64'),
});
const DEFAULT_SETTINGS_KEY = keyOf({});

// Organization settings are parsed afresh whenever the organization is (re)loaded and never changed in
// place, so the options and their hash are computed once per settings object instead of once per request.
const settingsKeys = new WeakMap<DlpSettings, SettingsKey>();

function settingsKeyOf(settings: DlpSettings): SettingsKey {
  if (
    !settings.types &&
    !settings.ignoreTypes &&
    !settings.allowValues &&
    !settings.customPatterns &&
    !settings.phoneRegion
  ) {
    return DEFAULT_SETTINGS_KEY;
  }
  let key = settingsKeys.get(settings);
  if (!key) {
    key = keyOf(detectOptionsOf(settings));
    settingsKeys.set(settings, key);
  }
  return key;
}

// Both parts are fixed-length SHA-256 digests, so the pair is as collision-safe as one hash of both.
const cacheKey = (text: string, settings: SettingsKey): string | undefined =>
  text.length > CACHEABLE_CHARS ? undefined : settings.hash + hash('sha256', text, 'base64');

/**
 * What detection finds in each field: cached fields from the cache, the others in one engine call (in a
 * worker thread when they are large, so a hostile request does not hold the event loop: #15).
 */
async function detectFields(texts: string[], settings: SettingsKey, compute: Compute): Promise<Entity[][]> {
  const keys = texts.map((t) => cacheKey(t, settings));
  const out: Array<Entity[] | undefined> = texts.map((text, i) => {
    const key = keys[i];
    // Marked as read, not moved (SecondChanceMap): a conversation's history, hit by every turn, stays while
    // the new turns of many conversations pass through (in insertion order alone it was dropped every 5,000
    // new turns, every few seconds at a thousand requests a second, and detected again).
    const spans = key === undefined ? undefined : foundCache.get(key);
    if (!spans) return undefined;
    foundCounts.hits++;
    return spans.map((span) => ({ ...span, value: text.slice(span.start, span.end) }));
  });
  const todo = texts.flatMap((_t, i) => (out[i] ? [] : [i]));
  if (todo.length === 0) return out as Entity[][];
  const pending = todo.map((i) => texts[i] ?? '');
  const size = pending.reduce((n, t) => n + t.length, 0);
  const found = await compute.run('detectEntities', [pending, settings.options], size);
  todo.forEach((i, j) => {
    const entities = found[j] ?? [];
    out[i] = entities;
    const key = keys[i];
    if (key === undefined) return;
    foundCounts.misses++;
    foundCache.set(
      key,
      entities.map(({ value: _value, ...span }) => span),
    );
  });
  return out as Entity[][];
}

export interface FieldsOutcome {
  /** Null when nothing was found: no vault session is written for a request without personal data. */
  session: VaultSession | null;
  entities: Entity[];
  /** Tokens placed in the request (repeats counted). */
  tokenCount: number;
  /** Names of the fields that received at least one token. */
  tokenizedFields: string[];
  /**
   * With `deferCommit`: settles when the vault's write has committed. Await it before anything of the
   * answer reaches the client (it rejects when the write failed); absent when nothing was written.
   */
  stored?: Promise<void>;
}

export interface ProtectHooks {
  /** Called before anything is stored when a type the organization blocks is present. */
  onBlocked(entities: Entity[], preview: string): Promise<void>;
  /** Runs in the vault's transaction when personal data was tokenized (for dlp.violation). */
  within?(trx: Db, entities: Entity[], preview: string): Promise<void>;
}

type DlpPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'dlp.violation' | 'dlp.blocked',
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * The DLP events of a protected request: `dlp.blocked` when a blocked type is present, `dlp.violation`
 * inside the vault's transaction when personal data was tokenized. Chat and proxy share them.
 */
export function dlpEventHooks(
  publish: DlpPublish,
  db: Db,
  caller: {
    org: { id: string; plan: string };
    userId: string | null;
    apiKeyId?: string | null;
    sourceIp: string | null;
  },
  onBlocked?: () => void,
): ProtectHooks {
  const who = {
    userId: caller.userId,
    apiKeyId: caller.apiKeyId ?? null,
    ...(caller.sourceIp ? { sourceIp: caller.sourceIp } : {}),
  };
  return {
    onBlocked: async (entities, preview) => {
      onBlocked?.();
      await publish(
        db,
        caller.org,
        'dlp.blocked',
        dlpEventData(entities, preview, { action: 'BLOCKED', ...who }),
      );
    },
    within: async (trx, entities, preview) => {
      await publish(
        trx,
        caller.org,
        'dlp.violation',
        dlpEventData(entities, preview, { action: 'REDACTED', ...who }),
      );
    },
  };
}

/**
 * Tokenizes the fields in place into the vault (a new session, or `sessionId`'s). A request without
 * personal data costs one detection pass and no database write.
 */
export async function tokenizeFields(
  vault: Vault,
  orgId: string,
  fields: TextField[],
  settings: DlpSettings,
  opts: {
    sessionId?: string;
    always?: boolean;
    hooks?: ProtectHooks;
    cacheSession?: boolean;
    compute?: Compute;
    /** Resolve before the vault's commit (see FieldsOutcome.stored). */
    deferCommit?: boolean;
    /** No field refuses the request for a blocked type (as if every field were TextField.noBlock). */
    noBlock?: boolean;
  },
): Promise<FieldsOutcome> {
  const key = settingsKeyOf(settings);
  const perField = await detectFields(
    fields.map((f) => f.text),
    key,
    opts.compute ?? inlineCompute,
  );
  const found = perField.flat();
  // End-user identifier fields (TextField.noBlock) are tokenized but never refuse the request.
  const blocked =
    settings.blockTypes?.length && !opts.noBlock
      ? perField
          .flatMap((entities, i) => (fields[i]?.noBlock ? [] : entities))
          .filter((e) => settings.blockTypes?.some((t) => t.toUpperCase() === e.type.toUpperCase()))
      : [];
  if (blocked.length > 0) {
    await opts.hooks?.onBlocked(
      found,
      dlpPreview(
        fields.map((f) => f.text),
        perField,
        settings,
      ),
    );
    throw new AppError(
      'forbidden',
      `The request contains data this organization does not allow to reach an LLM (${[...new Set(blocked.map((e) => e.type))].join(', ')}).`,
    );
  }
  if (found.length === 0 && !opts.always) {
    return { session: null, entities: [], tokenCount: 0, tokenizedFields: [] };
  }
  const within = opts.hooks?.within;
  // Only fields where detection found something go to the vault, with what was found in each: one vault
  // call and one transaction for the whole request.
  const targets = fields
    .map((field, i) => ({ field, entities: perField[i] ?? [] }))
    .filter((t) => t.entities.length > 0);
  const outcome = await vault.tokenizeParts(
    orgId,
    targets.map((t) => ({ text: t.field.text, entities: t.entities })),
    {
      ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
      cache: opts.cacheSession !== false,
      ...(opts.deferCommit ? { deferCommit: true } : {}),
      settings,
      ...(within
        ? {
            within: async (trx: Db, o: { entities: Entity[]; preview: string }) => {
              if (o.entities.length > 0) await within(trx, o.entities, o.preview);
            },
          }
        : {}),
    },
  );
  const tokenizedFields: string[] = [];
  try {
    targets.forEach(({ field }, i) => {
      const next = outcome.tokenized[i] ?? field.text;
      if (next !== field.text) tokenizedFields.push(field.name);
      field.set(next);
    });
  } catch (err) {
    // A field refused its token (two map keys that become one): the request is refused, and the deferred
    // write it started goes on without anyone awaiting it.
    outcome.stored?.catch(() => {});
    throw err;
  }
  return {
    session: outcome.session,
    entities: outcome.entities,
    tokenCount: outcome.tokens.length,
    tokenizedFields,
    ...(outcome.stored ? { stored: outcome.stored } : {}),
  };
}
