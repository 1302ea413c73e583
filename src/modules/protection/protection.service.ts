import type { AnalysisResult } from '../../engines/detection/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import type { Db } from '../../platform/storage/index.js';
import { detectionOptionsFor, publishDetection } from '../detection/index.js';
import { dlpSettingsOf, type Vault } from '../dlp/index.js';
import type { Organization } from '../orgs/index.js';
import type { TextField } from './text-fields.js';
import { dlpEventHooks, type FieldsOutcome, tokenizeFields } from './tokenize.js';

export type ProtectionPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'detection.created' | 'detection.high_severity' | 'dlp.violation' | 'dlp.blocked',
  data: Record<string, unknown>,
) => Promise<unknown>;

/** Who sent a protected request: what the events of the pipeline say about its origin. */
export interface ProtectedCaller {
  org: Organization;
  userId: string | null;
  apiKeyId: string | null;
  sourceIp: string | null;
  userAgent?: string | null;
}

export interface TokenizeOptions {
  /** Tokenize into this vault session (a conversation's) instead of a new one. */
  sessionId?: string;
  /** Open a session even when nothing was found (the chat keeps one per conversation). */
  always?: boolean;
  /** Keep the session in the process's vault cache (false: rehydrated from memory within the request). */
  cacheSession?: boolean;
  /** Called when a type the organization blocks was found, before the request is refused. */
  onBlocked?: () => void;
  /**
   * Resolve before the vault's commit, which goes on while the caller sends the tokenized request
   * upstream; the caller awaits the outcome's `stored` before its client sees any of the answer.
   */
  deferCommit?: boolean;
}

/**
 * The protection pipeline every transport shares (the protected chat, the provider proxy, the network
 * proxy): 1. injection check of what the user wrote, 2. tokenization of every text field into the vault,
 * then, after the caller's upstream call, 3. rehydration of whole bodies (rehydrate.ts) and of streams
 * (ChunkRehydrator, DeltaRehydrator in json-rehydrate.ts, both over the DLP engine's DeltaFields). Events come from their owners' builders: detection events from the
 * detection module, DLP events from the DLP module.
 */
export function createProtection(deps: {
  db: Db;
  vault: Vault;
  publish: ProtectionPublish;
  /** Runs detection and the DLP pass; large texts go to a worker thread under a time budget. */
  compute?: Compute;
}) {
  const compute = deps.compute ?? inlineCompute;
  return {
    /** Analyses `text` with the organization's detection settings; publishes detection events from log up. */
    async checkInjection(
      caller: ProtectedCaller,
      text: string,
      endpoint: string,
    ): Promise<AnalysisResult & { processingTimeMs: number }> {
      const started = performance.now();
      const analysis = await compute.run('analyze', [text, detectionOptionsFor(caller.org)], text.length);
      const processingTimeMs = Math.round(performance.now() - started);
      await publishDetection(
        deps,
        caller.org,
        analysis,
        text,
        {
          endpoint,
          sourceIp: caller.sourceIp,
          userAgent: caller.userAgent ?? null,
          userId: caller.userId,
          apiKeyId: caller.apiKeyId,
        },
        processingTimeMs,
      );
      return { ...analysis, processingTimeMs };
    },

    /** Tokenizes the fields in place (see tokenizeFields), with the DLP events of the request. */
    tokenize(
      caller: ProtectedCaller,
      fields: TextField[],
      opts: TokenizeOptions = {},
    ): Promise<FieldsOutcome> {
      return tokenizeFields(deps.vault, caller.org.id, fields, dlpSettingsOf(caller.org.settings), {
        ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
        ...(opts.always ? { always: true } : {}),
        ...(opts.cacheSession === false ? { cacheSession: false } : {}),
        ...(opts.deferCommit ? { deferCommit: true } : {}),
        hooks: dlpEventHooks(deps.publish, deps.db, caller, opts.onBlocked),
        compute,
      });
    },
  };
}

export type Protection = ReturnType<typeof createProtection>;
