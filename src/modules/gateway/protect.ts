import { randomBytes } from 'node:crypto';
import {
  createTokenMap,
  type DetectOptions,
  detectEntities,
  type Entity,
  tokenize,
} from '../../engines/dlp/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { DlpSettings, Vault, VaultSession } from '../dlp/index.js';
import type { TextField } from './text-fields.js';

// Joins a request's fields so the vault runs (and writes) once per request. Newlines and an invisible
// separator around it keep any detector from matching across two fields; a field that contains it
// makes the split fail, and those requests fall back to one vault call per field.
const SEPARATOR = '\n\u2063\u2063\u2063\n';

export function detectOptionsOf(s: DlpSettings): DetectOptions {
  return {
    ...(s.types ? { types: s.types } : {}),
    ...(s.ignoreTypes ? { ignoreTypes: s.ignoreTypes } : {}),
    ...(s.allowValues ? { allowValues: s.allowValues } : {}),
    ...(s.customPatterns ? { customPatterns: s.customPatterns } : {}),
  };
}

/** Text with personal data replaced by throwaway tokens: safe for event previews and logs. */
export function redactedPreview(text: string, settings: DlpSettings, max = 160): string {
  const { tokenized } = tokenize(text, createTokenMap(), randomBytes(32), detectOptionsOf(settings));
  return tokenized.length > max ? `${tokenized.slice(0, max)}…` : tokenized;
}

export interface FieldsOutcome {
  /** Null when nothing was found: no vault session is written for a request without personal data. */
  session: VaultSession | null;
  entities: Entity[];
  /** Tokens placed in the request (repeats counted). */
  tokenCount: number;
  /** Names of the fields that received at least one token. */
  tokenizedFields: string[];
}

export interface ProtectHooks {
  /** Called before anything is stored when a type the organization blocks is present. */
  onBlocked(entities: Entity[], preview: string): Promise<void>;
  /** Runs in the vault's transaction when personal data was tokenized (for dlp.violation). */
  within?(trx: Db, entities: Entity[], tokenized: string, sessionId: string): Promise<void>;
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
  opts: { sessionId?: string; always?: boolean; hooks?: ProtectHooks },
): Promise<FieldsOutcome> {
  const joined = fields.map((f) => f.text).join(SEPARATOR);
  const found = detectEntities(joined, detectOptionsOf(settings));
  const blocked = settings.blockTypes?.length
    ? found.filter((e) => settings.blockTypes?.some((t) => t.toUpperCase() === e.type.toUpperCase()))
    : [];
  if (blocked.length > 0) {
    await opts.hooks?.onBlocked(found, redactedPreview(joined.split(SEPARATOR).join(' '), settings));
    throw new AppError(
      'forbidden',
      `The request contains data this organization does not allow to reach an LLM (${[...new Set(blocked.map((e) => e.type))].join(', ')}).`,
    );
  }
  if (found.length === 0 && !opts.always) {
    return { session: null, entities: [], tokenCount: 0, tokenizedFields: [] };
  }
  const within = opts.hooks?.within;
  const run = (text: string, sessionId: string | undefined, publish = true) =>
    vault.tokenize(orgId, text, {
      ...(sessionId ? { sessionId } : {}),
      settings,
      ...(within && publish
        ? {
            within: async (trx: Db, o: { entities: Entity[]; tokenized: string; sessionId: string }) => {
              if (o.entities.length > 0) await within(trx, o.entities, o.tokenized, o.sessionId);
            },
          }
        : {}),
    });

  const outcome = await run(joined, opts.sessionId);
  const parts = outcome.tokenized.split(SEPARATOR);
  const tokenizedFields: string[] = [];
  if (parts.length === fields.length) {
    fields.forEach((f, i) => {
      const next = parts[i] ?? f.text;
      if (next !== f.text) tokenizedFields.push(f.name);
      f.set(next);
    });
    return {
      session: outcome.session,
      entities: outcome.entities,
      tokenCount: outcome.tokens.length,
      tokenizedFields,
    };
  }
  // Rare: a field contained the separator. Tokenize field by field into the same session.
  let session = outcome.session;
  let tokenCount = 0;
  const entities: Entity[] = [];
  for (const f of fields) {
    const o = await run(f.text, session.id, false);
    session = o.session;
    tokenCount += o.tokens.length;
    entities.push(...o.entities);
    if (o.tokenized !== f.text) tokenizedFields.push(f.name);
    f.set(o.tokenized);
  }
  return { session, entities, tokenCount, tokenizedFields };
}
