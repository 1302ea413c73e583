import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { Vault, VaultSession } from '../dlp/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization } from '../orgs/index.js';
import type { Protection as Pipeline, ProtectionPublish, TextField } from '../protection/index.js';
import {
  type Attempt,
  type CancelSignal,
  type ChatMessage,
  chatWithFallback,
  estimateCost,
  estimateMessagesTokens,
  estimateTokens,
  microsToUsd,
  type ModelInfo,
  type OnAttemptFailure,
  ProviderError,
  type Providers,
  route,
  usdToMicros,
} from '../providers/index.js';
import { CUT_ANSWER_NOTE, isCutFinish, finishedPart } from './cut-answer.js';
import { CHAT_PATH } from './force.service.js';
import { createGatewayRepo } from './gateway.repo.js';
import { rehydrate } from '../../engines/dlp/index.js';
import { CONVERSATION_ID_PATTERN } from './history.schemas.js';
import type { ProviderKeysService } from './provider-keys.service.js';
import type { UsageRecorder } from './usage.recorder.js';

/** Turns kept in a conversation; older ones drop out of the prompt. */
export const MAX_HISTORY_MESSAGES = 40;
const CONVERSATION_ID = new RegExp(CONVERSATION_ID_PATTERN);

export type GatewayPublish = ProtectionPublish;

export interface ChatBody {
  message: string;
  autoSelect?: boolean;
  stream?: boolean;
  conversationId?: string;
  routing?: { preferredModel?: string; maxCost?: number };
  system?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface ChatCaller {
  org: Organization;
  userId: string | null;
  apiKeyId: string | null;
  sourceIp: string | null;
  userAgent?: string | null;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** USD, derived from costMicroUsd (at most six decimals). */
  cost: number;
  /** Integer micro-dollars: the exact figure to add up. */
  costMicroUsd: number;
}

export interface Protection {
  pgScore: number;
  pgBlocked: boolean;
  tokensDetected: number;
  tokenizedFields: string[];
  rehydrated: boolean;
}

export interface ChatResult {
  response: string;
  model: string;
  conversationId: string | null;
  usage: ChatUsage;
  protection: Protection;
}

/** A request that passed the checks: tokenized, routed, ready for the provider call. */
export interface ReadyChat {
  kind: 'ready';
  caller: ChatCaller;
  conversation: { id: string; isNew: boolean; history: ChatMessage[] };
  /** The tokenized user turn as stored. */
  userTurn: ChatMessage;
  messages: ChatMessage[];
  session: VaultSession;
  models: ModelInfo[];
  attempts(signal: CancelSignal): Attempt[];
  protection: Protection;
  dlpMs: number;
}

export type PreparedChat = ReadyChat | { kind: 'blocked'; result: ChatResult };

export interface ChatServiceDeps {
  db: Db;
  clock: Clock;
  vault: Vault;
  providers: Providers;
  keys: ProviderKeysService;
  limits: LimitsService;
  usage: UsageRecorder;
  protection: Pipeline;
  /** No byte from the provider for this long (first token included) gives up; reasoning models are slow. */
  idleTimeoutMs?: number;
}

export const ZERO_USAGE: ChatUsage = {
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cost: 0,
  costMicroUsd: 0,
};

export function providerFailure(err: ProviderError): AppError {
  const what = `The ${err.provider} provider failed (${err.code}, status ${err.status}).`;
  return err.code === 'timeout'
    ? new AppError('upstream_timeout', `${what} No answer arrived in time.`)
    : new AppError('upstream_error', what);
}

/** The protected chat: injection check, tokenization, routing, provider call, rehydration, usage. */
export function createChatService(deps: ChatServiceDeps) {
  const repo = createGatewayRepo(deps.db);
  const idleTimeoutMs = deps.idleTimeoutMs ?? 120_000;

  async function prepare(caller: ChatCaller, body: ChatBody): Promise<PreparedChat> {
    const org = caller.org;
    let history: ChatMessage[] = [];
    let conversationId: string | null = null;
    let sessionId: string | undefined;
    let keptModel: string | undefined;
    if (body.conversationId !== undefined) {
      const row = CONVERSATION_ID.test(body.conversationId)
        ? await repo.conversation(org.id, body.conversationId)
        : undefined;
      // With a dashboard session, a conversation is its starter's: continuing one rehydrates its tokens in
      // the answer, so a colleague (an admin too) would read the starter's personal data. A key stands for
      // the organization and continues any of its conversations, as it may rehydrate any of its sessions.
      if (!row || (caller.userId !== null && row.user_id !== caller.userId)) {
        throw new AppError('not_found', 'Conversation was not found.');
      }
      // Checked before anything runs or counts: a conversation lives as long as its vault session.
      await deps.vault.session(org.id, row.vault_session_id).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'not_found') {
          throw new AppError(
            'not_found',
            'Conversation has expired (its personal data was erased with its vault session); start a new one.',
          );
        }
        throw err;
      });
      conversationId = row.id;
      sessionId = row.vault_session_id;
      history = JSON.parse(row.messages) as ChatMessage[];
      keptModel = row.model || undefined;
    }

    // 1. Injection check: on the user's message only; history was checked when it was sent. The system
    // prompt is its context (the engine weighs an instruction off the stated task more): the one sent with
    // the first turn, or the conversation's (stored tokenized, which leaves its words to compare with).
    const keptSystem = history[0]?.role === 'system' ? history[0].content : null;
    const context =
      history.length === 0 ? body.system : typeof keptSystem === 'string' ? keptSystem : undefined;
    const analysis = await deps.protection.checkInjection(caller, body.message, CHAT_PATH, context);
    const blocked = analysis.action === 'block';
    deps.limits.record(org, 'chat', { blocked, warned: analysis.action === 'warn', score: analysis.score });
    if (blocked) {
      return {
        kind: 'blocked',
        result: {
          response:
            'This message was blocked by Parapet: it looks like a prompt injection or jailbreak attempt.',
          model: '',
          conversationId,
          usage: { ...ZERO_USAGE },
          protection: {
            pgScore: analysis.score,
            pgBlocked: true,
            tokensDetected: 0,
            tokenizedFields: [],
            rehydrated: false,
          },
        },
      };
    }

    // 2. Tokenization into the conversation's vault session.
    const dlpStarted = performance.now();
    // Answers stored before 2026-11-28 may hold personal data the model wrote in clear: tokenized (as
    // answers are now, see storedAnswer) before the history goes upstream again, and stored so with this
    // turn. An answer stored tokenized finds nothing, and detection is cached by text: a lookup per answer.
    if (sessionId) {
      const answers = history.flatMap((m, i): TextField[] =>
        m.role === 'assistant' && typeof m.content === 'string' && m.content !== ''
          ? [{ name: `history[${i}]`, text: m.content, set: (v) => (history[i] = { ...m, content: v }) }]
          : [],
      );
      if (answers.length > 0) await deps.protection.tokenize(caller, answers, { sessionId, answer: true });
    }
    const userTurn: ChatMessage = { role: 'user', content: body.message };
    const system: ChatMessage | undefined =
      body.system !== undefined && history.length === 0
        ? { role: 'system', content: body.system }
        : undefined;
    const fields: TextField[] = [
      { name: 'message', text: body.message, set: (v) => (userTurn.content = v) },
      ...(system
        ? [{ name: 'system', text: body.system ?? '', set: (v: string) => (system.content = v) }]
        : []),
    ];
    const outcome = await deps.protection.tokenize(caller, fields, {
      ...(sessionId ? { sessionId } : {}),
      always: true,
      onBlocked: () => deps.limits.record(caller.org, 'chat', { blocked: true }),
    });
    const session = outcome.session as VaultSession;
    const dlpMs = performance.now() - dlpStarted;
    const tokenizedFields = [...outcome.tokenizedFields];
    if (history.some((m) => typeof m.content === 'string' && /TKN_/.test(m.content)))
      tokenizedFields.push('history');

    // 3. Routing over the providers this organization has keys for (the offline model always).
    const messages = [...(system ? [system] : []), ...history, userTurn];
    const creds = await deps.keys.credentials(org.id);
    const routeWith = (preferredModel: string | undefined) =>
      route({
        ...(preferredModel ? { preferredModel } : {}),
        ...(body.autoSelect !== undefined ? { autoSelect: body.autoSelect } : {}),
        ...(body.routing?.maxCost !== undefined ? { maxCost: body.routing.maxCost } : {}),
        ...(body.maxTokens !== undefined ? { maxOutputTokens: body.maxTokens } : {}),
        promptTokens: estimateMessagesTokens(messages),
        availableProviders: creds.available,
      });
    // A later turn keeps the conversation's model unless the request says otherwise (routing.preferredModel,
    // or autoSelect: true); docs/gateway.md. A kept model whose provider is no longer configured is not an
    // error the caller asked for: the usual routing picks another, and the answer's `model` says which.
    const told = Boolean(body.routing?.preferredModel) || body.autoSelect === true;
    let choice = routeWith(told ? body.routing?.preferredModel : keptModel);
    if ('error' in choice && !told && keptModel && choice.error === 'model_not_found') {
      choice = routeWith(undefined);
    }
    if ('error' in choice) {
      // The body field the refusal is about, named as every 400 does (docs/errors.md).
      const field = choice.input ? `The body field 'routing.${choice.input}' cannot be used: ` : '';
      const message = field ? choice.message : choice.message.replace(/^./, (c) => c.toUpperCase());
      throw new AppError('invalid_request', `${field}${message}.`);
    }
    // Models paired with an adapter and an opened key once, so attempt i always answers for models[i].
    const usable = [choice.model, ...choice.fallbacks].flatMap((model) => {
      const adapter = deps.providers.get(model.provider);
      const cred = creds.get(model.provider);
      return adapter && cred ? [{ model, adapter, cred }] : [];
    });
    if (usable.length === 0)
      throw new AppError('invalid_request', 'No configured provider can answer this request.');
    const models = usable.map((u) => u.model);

    return {
      kind: 'ready',
      caller,
      conversation: { id: conversationId ?? newId('conv'), isNew: conversationId === null, history },
      userTurn,
      messages,
      session,
      models,
      dlpMs,
      protection: {
        pgScore: analysis.score,
        pgBlocked: false,
        tokensDetected: outcome.tokenCount,
        tokenizedFields,
        rehydrated: false,
      },
      attempts: (signal) =>
        usable.map(({ model, adapter, cred }) => ({
          adapter,
          request: {
            model: model.id,
            messages,
            ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
            ...(body.maxTokens !== undefined ? { max_tokens: body.maxTokens } : {}),
          },
          ctx: {
            apiKey: cred.apiKey,
            signal,
            idleTimeoutMs,
            ...(cred.baseUrl ? { baseUrl: cred.baseUrl } : {}),
          },
        })),
    };
  }

  /** Usage from the provider when it reported it, else estimated from the tokenized prompt and the answer. */
  function usageOf(
    ready: ReadyChat,
    model: ModelInfo,
    reported: { prompt_tokens: number; completion_tokens: number } | undefined | null,
    answer: string,
  ): { usage: ChatUsage; source: 'provider' | 'estimated'; usd: number } {
    const prompt = reported?.prompt_tokens ?? estimateMessagesTokens(ready.messages);
    const completion = reported?.completion_tokens ?? estimateTokens(answer);
    // Stored unrounded (usd), so that the usage report's sum of many sub-micro calls is not lost.
    const usd = estimateCost(model, prompt, completion);
    const costMicroUsd = usdToMicros(usd);
    return {
      usd,
      usage: {
        promptTokens: prompt,
        completionTokens: completion,
        totalTokens: prompt + completion,
        cost: microsToUsd(costMicroUsd),
        costMicroUsd,
      },
      source: reported ? 'provider' : 'estimated',
    };
  }

  /**
   * The answer as it is stored and sent again as history: the model wrote tokens for the user's data, but
   * personal data of its own (an address it knew, a number it made up) came in clear. That goes into the
   * conversation's vault session too, so the stored turn holds no original and the next turn sends none
   * upstream (docs/gateway.md); the caller still reads it, the answer being rehydrated from the same session.
   */
  async function storedAnswer(ready: ReadyChat, answer: string): Promise<string | null> {
    if (answer === '') return answer;
    let stored = answer;
    const field: TextField = { name: 'answer', text: answer, set: (v) => (stored = v) };
    try {
      await deps.protection.tokenize(ready.caller, [field], { sessionId: ready.session.id, answer: true });
    } catch (err) {
      // The conversation was erased while the model answered (its session with it): nothing to keep.
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    }
    return stored;
  }

  /**
   * Stores the turn (the answer tokenized into the conversation's session) and records usage; called once
   * per provider call that produced text. `answer` is the upstream's own text, with the tokens the model
   * wrote, never the rehydrated text the caller read. An answer that did not end as the model finished it
   * (`outcome` aborted or error, or `cut`: any finish reason but a finished one, isCutFinish) is stored only up to its
   * finished part (cut-answer.ts); when nothing of it is finished, the user's message is stored with
   * CUT_ANSWER_NOTE in the answer's place, so the history keeps what the user asked.
   */
  async function finish(
    ready: ReadyChat,
    model: ModelInfo,
    answer: string,
    usage: { usage: ChatUsage; source: 'provider' | 'estimated'; usd: number },
    outcome: 'ok' | 'aborted' | 'error',
    cut = false,
  ): Promise<void> {
    const org = ready.caller.org;
    deps.usage.record({
      orgId: org.id,
      endpoint: 'chat',
      provider: model.provider,
      model: model.key,
      promptTokens: usage.usage.promptTokens,
      completionTokens: usage.usage.completionTokens,
      cost: usage.usd,
      source: usage.source,
      outcome,
      conversationId: ready.conversation.id,
    });
    if (outcome !== 'ok' && answer === '') return;
    const tokenized = await storedAnswer(ready, answer);
    if (tokenized === null) return;
    // Cut after the tokenization, which turns the clear values the model finished into tokens to end at.
    const finished = outcome !== 'ok' || cut ? finishedPart(tokenized) : tokenized;
    // Nothing of it finished: the user's message is still kept, with a note in the answer's place (an empty
    // assistant message is refused upstream by some providers when the history is sent again).
    const tokenizedAnswer = finished === '' && answer !== '' ? CUT_ANSWER_NOTE : finished;
    const system = ready.messages[0]?.role === 'system' ? [ready.messages[0]] : [];
    const all = [
      ...system,
      ...ready.conversation.history.filter((m) => m.role !== 'system'),
      ready.userTurn,
      { role: 'assistant' as const, content: tokenizedAnswer },
    ];
    const kept = [...system, ...all.slice(system.length).slice(-MAX_HISTORY_MESSAGES)];
    const now = deps.clock.now().toISOString();
    if (ready.conversation.isNew) {
      await repo.insertConversation({
        id: ready.conversation.id,
        org_id: org.id,
        vault_session_id: ready.session.id,
        messages: JSON.stringify(kept),
        model: model.key,
        user_id: ready.caller.userId,
        created_at: now,
        updated_at: now,
      });
      ready.conversation.isNew = false;
    } else {
      await repo.updateConversation(org.id, ready.conversation.id, {
        messages: JSON.stringify(kept),
        model: model.key,
        updated_at: now,
      });
    }
  }

  /** The conversation's id for the caller to continue it; null for a new one that nothing was stored of. */
  function storedId(ready: ReadyChat): string | null {
    return ready.conversation.isNew ? null : ready.conversation.id;
  }

  /** Accounts each provider call that failed before its answer began (usage.failed); aborts are the caller's. */
  function failedAttempt(ready: ReadyChat): OnAttemptFailure {
    return (attempt, err) => {
      const model = ready.models[attempt];
      if (!model || (err instanceof ProviderError && err.code === 'aborted')) return;
      deps.usage.failed({
        orgId: ready.caller.org.id,
        endpoint: 'chat',
        provider: model.provider,
        model: model.key,
        // A new conversation is stored only once a model answers: until then its id names nothing.
        ...(ready.conversation.isNew ? {} : { conversationId: ready.conversation.id }),
      });
    };
  }

  return {
    prepare,
    finish,
    storedId,
    usageOf,
    failedAttempt,

    /** The whole answer at once (stream: false). */
    async complete(ready: ReadyChat, signal: CancelSignal): Promise<ChatResult & { upstreamMs: number }> {
      const started = performance.now();
      let answer: Awaited<ReturnType<typeof chatWithFallback>>;
      try {
        answer = await chatWithFallback(ready.attempts(signal), failedAttempt(ready));
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'aborted' && ready.models[0]) {
          // The client left: the prompt was sent, so it is accounted (estimated).
          const model = ready.models[0];
          await finish(ready, model, '', usageOf(ready, model, null, ''), 'aborted');
        }
        if (err instanceof ProviderError) throw providerFailure(err);
        throw err;
      }
      const upstreamMs = performance.now() - started;
      const model = ready.models[answer.attempt] as ModelInfo;
      const message = answer.value.choices[0]?.message;
      const raw = typeof message?.content === 'string' ? message.content : '';
      const restored = rehydrate(raw, ready.session.map);
      const usage = usageOf(ready, model, answer.value.usage, raw);
      const cut = isCutFinish(answer.value.choices[0]?.finish_reason);
      await finish(ready, model, raw, usage, 'ok', cut);
      return {
        response: restored.text,
        model: model.key,
        conversationId: storedId(ready),
        usage: usage.usage,
        protection: { ...ready.protection, rehydrated: restored.restored > 0 },
        upstreamMs,
      };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
