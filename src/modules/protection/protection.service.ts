import type { AnalysisResult, DetectionOptions } from '../../engines/detection/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { detectionOptionsFor, publishDetection } from '../detection/index.js';
import { dlpSettingsOf, type Vault } from '../dlp/index.js';
import type { Organization } from '../orgs/index.js';
import { type AnalysisCache, createAnalysisCache } from './analysis-cache.js';
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
  /** The injection analyses checkPrompt made already (one per process: the gateway builds one protection). */
  analysisCache?: AnalysisCache;
}) {
  const compute = deps.compute ?? inlineCompute;
  const analysisCache = deps.analysisCache ?? createAnalysisCache();

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

  /**
   * What analyzeEach gives for `items` (in order, up to and including the first block), the known analyses
   * from the cache and the others from one compute task, whose size counts only them. A failure of that
   * task (budget, busy workers) propagates as it did before the cache, and nothing of it is stored.
   */
  async function analyseEach(
    orgId: string,
    items: ReadonlyArray<{ text: string; options: DetectionOptions; size: number }>,
  ): Promise<AnalysisResult[]> {
    const keys = await analysisCache.keysFor(orgId, items);
    const read = items.map((item, i) => ({ ...item, key: keys[i] as string }));
    const known: Array<AnalysisResult | undefined> = [];
    for (const { key, text } of read) {
      const hit = analysisCache.get(key, text);
      known.push(hit);
      // A known block ends the reading: nothing after it is looked up or analysed.
      if (hit?.action === 'block') break;
    }
    const todo = read.slice(0, known.length).flatMap((item, i) => (known[i] ? [] : [{ ...item, at: i }]));
    if (todo.length > 0) {
      const size = todo.reduce((n, t) => n + t.size, 0);
      const tasks = todo.map(({ text, options }) => ({ text, options }));
      const fresh = await compute.run('analyzeEach', [tasks], size);
      fresh.forEach((r, j) => {
        const t = todo[j] as (typeof todo)[number];
        known[t.at] = r;
        analysisCache.set(t.key, t.text, r);
      });
    }
    const results: AnalysisResult[] = [];
    for (const r of known) {
      // Compute stops at its first block: a text it did not read lies after one. Anything else unread
      // would be a text let through unchecked, so the request fails instead.
      if (!r) throw new Error('The injection analysis answered fewer texts than it was given.');
      results.push(r);
      if (r.action === 'block') break;
    }
    return results;
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
     * through. A text analysed before with the same options, for the same organization (a resent one,
     * mostly), is answered from the analysis cache (analysis-cache.ts) and not sent to compute; the rest is
     * as if all were read.
     */
    async checkPrompt(caller: ProtectedCaller, prompt: PromptTexts, endpoint: string): Promise<void> {
      // `size`: what the text weighs in the compute task (the user text's context is read with it).
      const items: Array<{ text: string; options: DetectionOptions; size: number; resent?: boolean }> = [];
      if (prompt.user) {
        items.push({
          text: prompt.user,
          options: detectionOptionsFor(caller.org, prompt.system || undefined, true),
          size: prompt.user.length + prompt.system.length,
        });
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
      // One options object per source: the analysis cache makes the canonical form of each object once.
      const optionsBySource = new Map<string, DetectionOptions>();
      for (const { text, source, resent } of prompt.indirect) {
        let options = optionsBySource.get(source);
        if (!options) {
          options = detectionOptionsFor(caller.org, source, true);
          optionsBySource.set(source, options);
        }
        items.push({
          text,
          options,
          size: text.length,
          ...(resent ? { resent } : {}),
        });
      }
      if (items.length === 0) return;
      const started = performance.now();
      const results = await analyseEach(caller.org.id, items);
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
