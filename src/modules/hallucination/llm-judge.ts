import { createTokenMap, tokenize } from '../../engines/dlp/index.js';
import { type CheckResult, combine, type Verdict } from '../../engines/hallucination/index.js';
import { detectOptionsOf, dlpSettingsOf } from '../dlp/index.js';
import type { Organization } from '../orgs/index.js';
import {
  chatWithFallback,
  estimateTokens,
  isProviderId,
  ProviderError,
  type ProviderId,
  type Providers,
  route,
} from '../providers/index.js';

/**
 * The optional LLM judge (`mode: "llm"`): each sub-claim the local checker decided from a source goes to a
 * model of a provider the organization configured, with its best evidence, and the model's verdict is
 * combined with the local one. Personal data is tokenized first (DLP, the organization's settings), with
 * one token map for the whole request so that the same value is the same token in claim and evidence and
 * the model can still compare them. Nothing leaves when no provider is configured.
 */
/** The organization's provider credentials (the gateway's provider-keys service answers this). */
export interface ProviderCredentials {
  credentials(orgId: string): Promise<{
    available: string[];
    get(provider: string): { apiKey: string; baseUrl?: string } | undefined;
  }>;
}

export interface LlmJudgeDeps {
  keys: ProviderCredentials;
  providers: Providers;
  /** Gives up on the model after this long; the local verdict is answered instead. */
  timeoutMs?: number;
}

export type JudgeLabel = 'supported' | 'contradicted' | 'unsupported';

export interface JudgeInfo {
  /** `llm` when the model's verdicts were combined in, `local` when it could not be asked. */
  mode: 'llm' | 'local';
  model?: string;
  /** Why the local verdict stands alone: no_provider, provider_error, unreadable_answer. */
  fallback?: 'no_provider' | 'provider_error' | 'unreadable_answer';
}

export const JUDGE_TIMEOUT_MS = 30_000;
/** Sub-claims sent in one request; an answer of many sentences beyond it keeps local verdicts for the rest. */
export const JUDGE_MAX_CLAIMS = 20;
const EVIDENCE_CHARS = 2_000;

const SYSTEM = [
  'You check claims against evidence. Judge each numbered claim only by its own evidence, not by what you know.',
  'SUPPORTED: the evidence states the claim, possibly in other words.',
  'CONTRADICTED: the evidence states something incompatible with the claim.',
  'NOT_ENOUGH_INFO: the evidence neither states nor contradicts it.',
  'Tokens such as [PERSON_1] stand for hidden values: equal tokens are equal values.',
  'Answer with one line per claim, exactly "<number>: <LABEL>", and nothing else.',
].join('\n');

const LABELS: Record<string, JudgeLabel> = {
  SUPPORTED: 'supported',
  CONTRADICTED: 'contradicted',
  NOT_ENOUGH_INFO: 'unsupported',
};

/** Reads "<n>: <LABEL>" lines; tolerant of bullets, bold and case. */
export function parseJudgeAnswer(text: string, count: number): Array<JudgeLabel | undefined> {
  const out: Array<JudgeLabel | undefined> = new Array(count).fill(undefined);
  for (const line of text.split('\n')) {
    const m = /^\W*(\d+)\W+(SUPPORTED|CONTRADICTED|NOT[ _]ENOUGH[ _]INFO)\b/i.exec(line.trim());
    if (!m) continue;
    const i = Number(m[1]) - 1;
    if (i >= 0 && i < count && out[i] === undefined) out[i] = LABELS[m[2]!.toUpperCase().replace(/ /g, '_')];
  }
  return out;
}

const LLM_SCORE: Record<JudgeLabel, number> = { supported: 1, unsupported: 0.2, contradicted: 0 };

/**
 * The model decides the verdict of each sub-claim it answered for (it reads paraphrase the local checker
 * misses); the score averages both. A sub-claim a stored correction decided stays contradicted: the
 * organization said so, whatever a model thinks.
 */
export function combineWithJudge(local: CheckResult, labels: Array<JudgeLabel | undefined>): CheckResult {
  const corrected = correctedClaims(local);
  let k = 0;
  const claims = local.claims.map((part) => {
    const ev = local.evidence.find((e) => e.claim === part.text);
    if (!ev || corrected.has(part.text)) return part;
    const label = labels[k++];
    if (!label) return part;
    return { ...part, verdict: label as Verdict, score: round((part.score + LLM_SCORE[label]) / 2) };
  });
  const verdict = combine(claims.map((p) => p.verdict));
  let score = claims.length === 0 ? 0 : claims.reduce((a, p) => a + p.score, 0) / claims.length;
  if (verdict === 'contradicted') score = Math.min(score, 0.25);
  const evidence = local.evidence.map((e) => {
    const part = claims.find((p) => p.text === e.claim);
    return part ? { ...e, verdict: part.verdict } : e;
  });
  return { ...local, claims, evidence, verdict, score: round(score) };
}

/** The sub-claims a stored correction decided: never put to the model, never changed by it. */
const correctedClaims = (local: CheckResult): Set<string> => new Set(local.corrections.map((c) => c.claim));

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The sub-claims the model is asked about: those with source evidence, in order, at most JUDGE_MAX_CLAIMS. */
function questions(local: CheckResult): Array<{ claim: string; evidence: string }> {
  const corrected = correctedClaims(local);
  const out: Array<{ claim: string; evidence: string }> = [];
  for (const part of local.claims) {
    const ev = local.evidence.find((e) => e.claim === part.text);
    if (!ev || corrected.has(part.text)) continue;
    out.push({ claim: part.text, evidence: ev.match.slice(0, EVIDENCE_CHARS) });
    if (out.length >= JUDGE_MAX_CLAIMS) break;
  }
  return out;
}

export function createLlmJudge(deps: LlmJudgeDeps) {
  return {
    /**
     * Asks the model about the local result's sub-claims and combines the answers. Never throws for the
     * provider's sake: an unreachable or unreadable model leaves the local result, with the reason.
     */
    async judge(
      org: Organization,
      local: CheckResult,
      preferredModel?: string,
    ): Promise<{ result: CheckResult; info: JudgeInfo }> {
      const asked = questions(local);
      if (asked.length === 0) return { result: local, info: { mode: 'local' } };
      const creds = await deps.keys.credentials(org.id);
      // The offline stand-in model cannot judge anything: only the organization's own providers count.
      const available = creds.available.filter((p): p is ProviderId => isProviderId(p) && p !== 'parapet');
      const options = detectOptionsOf(dlpSettingsOf(org.settings));
      const map = createTokenMap();
      const key = crypto.getRandomValues(new Uint8Array(32));
      const hide = (text: string) => tokenize(text, map, key, options).tokenized;
      const prompt = asked
        .map((q, i) => `${i + 1}. Claim: ${hide(q.claim)}\n   Evidence: ${hide(q.evidence)}`)
        .join('\n');
      const choice = route({
        ...(preferredModel ? { preferredModel } : {}),
        promptTokens: estimateTokens(SYSTEM) + estimateTokens(prompt),
        maxOutputTokens: 16 * asked.length + 16,
        availableProviders: available,
      });
      if (available.length === 0 || 'error' in choice) {
        return { result: local, info: { mode: 'local', fallback: 'no_provider' } };
      }
      const attempts = [choice.model, ...choice.fallbacks].flatMap((model) => {
        const adapter = deps.providers.get(model.provider);
        const cred = creds.get(model.provider);
        if (!adapter || !cred) return [];
        return [
          {
            model,
            adapter,
            request: {
              model: model.id,
              messages: [
                { role: 'system' as const, content: SYSTEM },
                { role: 'user' as const, content: prompt },
              ],
              temperature: 0,
              max_tokens: 16 * asked.length + 16,
            },
            ctx: {
              apiKey: cred.apiKey,
              timeoutMs: deps.timeoutMs ?? JUDGE_TIMEOUT_MS,
              ...(cred.baseUrl ? { baseUrl: cred.baseUrl } : {}),
            },
          },
        ];
      });
      if (attempts.length === 0) return { result: local, info: { mode: 'local', fallback: 'no_provider' } };
      let answer: string;
      let model: string;
      try {
        const res = await chatWithFallback(attempts);
        model = attempts[res.attempt]!.model.key;
        const content = res.value.choices[0]?.message.content;
        answer = typeof content === 'string' ? content : '';
      } catch (err) {
        if (err instanceof ProviderError) {
          return { result: local, info: { mode: 'local', fallback: 'provider_error' } };
        }
        throw err;
      }
      const labels = parseJudgeAnswer(answer, asked.length);
      if (labels.every((l) => l === undefined)) {
        return { result: local, info: { mode: 'local', model, fallback: 'unreadable_answer' } };
      }
      return { result: combineWithJudge(local, labels), info: { mode: 'llm', model } };
    },
  };
}

export type LlmJudge = ReturnType<typeof createLlmJudge>;
