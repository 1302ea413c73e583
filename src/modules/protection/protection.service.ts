import type { AnalysisResult, DetectionOptions } from '../../engines/detection/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { detectionOptionsFor, publishDetection } from '../detection/index.js';
import { dlpSettingsOf, type Vault } from '../dlp/index.js';
import type { Organization } from '../orgs/index.js';
import type { PromptTexts } from './prompt-texts.js';
import type { TextField } from './text-fields.js';
import { dlpEventHooks, type FieldsOutcome, tokenizeFields } from './tokenize.js';

/**
 * Distinct texts (tool outputs, documents) one request may carry in for the injection check: each is an
 * analysis of its own, so their number is bounded apart from their size (docs/netproxy.md).
 */
export const MAX_CHECKED_TEXTS = 1_000;
/**
 * Distinct texts one request may carry in all, resent ones included (a Responses agent loop resends every
 * earlier tool output on each turn, so their number grows with the session): each is still read alone, as
 * joining texts changes what the engine finds in them (docs/gateway.md).
 */
export const MAX_READ_TEXTS = 5_000;

const ACTION_RANK = { allow: 0, log: 1, warn: 2, block: 3 } as const;
/** Whether `a` is the worse finding: a stronger action, or the same action at a higher score. */
const worse = (a: AnalysisResult, b: AnalysisResult): boolean =>
  ACTION_RANK[a.action] > ACTION_RANK[b.action] || (a.action === b.action && a.score > b.score);

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
  /**
   * The text is a model's answer being stored (the protected chat's history), not something a caller sends
   * towards a provider: the organization's `dlp.blockTypes` never refuse it (it was produced and shown
   * already; refusing would only lose the turn) and it publishes no DLP event (`dlp.violation` and
   * `dlp.blocked` report what a caller sent).
   */
  answer?: boolean;
}

/**
 * The protection pipeline every transport shares (the protected chat, the provider proxy, the network
 * proxy): 1. injection check of what the user wrote and of the texts the newest turn carries in (tool
 * outputs, documents: checkPrompt over promptTexts), 2. tokenization of every text field into the vault,
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

  /** Publishes the detection events of `analysis` (of `text`, the worst of `textsChecked` texts) from log up. */
  function publish(
    caller: ProtectedCaller,
    analysis: AnalysisResult,
    text: string,
    endpoint: string,
    processingTimeMs: number,
    textsChecked: number,
  ): Promise<boolean> {
    return publishDetection(
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
      textsChecked,
    );
  }

  /**
   * Analyses `text` with the organization's detection settings and `context` (a system prompt the caller
   * sent with it); publishes detection events from log up.
   */
  async function checkInjection(
    caller: ProtectedCaller,
    text: string,
    endpoint: string,
    context?: string,
  ): Promise<AnalysisResult & { processingTimeMs: number }> {
    const started = performance.now();
    // The context came in the caller's own request: it lowers no score (engine contextFromCaller), or
    // copying an attack into the system message would pass it.
    const options = detectionOptionsFor(caller.org, context || undefined, true);
    // The context is read too (normalised, compared with the text): it counts in the size that decides
    // whether the analysis runs in a worker.
    const analysis = await compute.run('analyze', [text, options], text.length + (context?.length ?? 0));
    const processingTimeMs = Math.round(performance.now() - started);
    await publish(caller, analysis, text, endpoint, processingTimeMs, 1);
    return { ...analysis, processingTimeMs };
  }

  return {
    checkInjection,

    /**
     * The injection policy of both proxies over what a request's model will read (promptTexts): the
     * user's words with the system prompt as their context, then each text carried in by the newest turn
     * (tool outputs, documents, search results) as indirect content, with its source as the context (the
     * engine weighs an instruction there more: a document may not instruct the assistant). The texts of
     * one request are one compute task (their total size picks a worker and its budget, as one large text
     * does), read in that order up to the first that blocks, and publish one event: the worst analysis,
     * with how many texts were checked. More than MAX_CHECKED_TEXTS distinct new texts is refused (400):
     * each is an analysis of its own. Resent texts (a Responses agent loop resends every tool output of the
     * session on every turn) count only toward MAX_READ_TEXTS, and each is still read alone: joined with
     * its neighbours an injection scored lower (a neighbour's "for example" made the whole group read as
     * a discussion of attacks) and weak findings of harmless texts added up to false blocks. `block`
     * refuses the request (403 forbidden) before anything is tokenized or sent; `log` and `warn` let it
     * through.
     */
    async checkPrompt(caller: ProtectedCaller, prompt: PromptTexts, endpoint: string): Promise<void> {
      const items: Array<{ text: string; options: DetectionOptions; resent?: boolean }> = [];
      let size = 0;
      if (prompt.user) {
        items.push({
          text: prompt.user,
          options: detectionOptionsFor(caller.org, prompt.system || undefined, true),
        });
        size += prompt.user.length + prompt.system.length;
      }
      const fresh = prompt.indirect.filter((t) => t.resent !== true).length;
      if (fresh > MAX_CHECKED_TEXTS) {
        throw new AppError(
          'invalid_request',
          `The request carries ${fresh} distinct new tool outputs and documents; the injection check reads at most ${MAX_CHECKED_TEXTS} per request. Send fewer (or join them). It was not sent.`,
        );
      }
      if (prompt.indirect.length > MAX_READ_TEXTS) {
        throw new AppError(
          'invalid_request',
          `The request carries ${prompt.indirect.length} distinct tool outputs and documents, earlier ones included; the injection check reads at most ${MAX_READ_TEXTS} per request. Start a new session (or send fewer). It was not sent.`,
        );
      }
      for (const { text, source, resent } of prompt.indirect) {
        items.push({
          text,
          options: detectionOptionsFor(caller.org, source, true),
          ...(resent ? { resent } : {}),
        });
        size += text.length;
      }
      if (items.length === 0) return;
      const started = performance.now();
      const results = await compute.run('analyzeEach', [items], size);
      const processingTimeMs = Math.round(performance.now() - started);
      // A `resent` text (one an earlier request may have checked and reported: promptTexts) is reported only
      // when it blocks; otherwise the worst of the others is, and nothing when only resent texts were read.
      let worst = -1;
      for (let i = 0; i < results.length; i++) {
        const r = results[i] as AnalysisResult;
        if (items[i]?.resent === true && r.action !== 'block') continue;
        if (worst < 0 || worse(r, results[worst] as AnalysisResult)) worst = i;
      }
      if (worst < 0) return;
      const analysis = results[worst] as AnalysisResult;
      await publish(
        caller,
        analysis,
        (items[worst] as { text: string }).text,
        endpoint,
        processingTimeMs,
        results.length,
      );
      if (analysis.action === 'block') {
        throw new AppError(
          'forbidden',
          'The request was blocked by Parapet: it looks like a prompt injection or jailbreak attempt.',
        );
      }
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
        ...(opts.answer
          ? { noBlock: true }
          : { hooks: dlpEventHooks(deps.publish, deps.db, caller, opts.onBlocked) }),
        compute,
      });
    },
  };
}

export type Protection = ReturnType<typeof createProtection>;
