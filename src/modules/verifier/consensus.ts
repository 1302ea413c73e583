import { createTokenMap, type DetectOptions, tokenize } from '../../engines/dlp/index.js';
import { secureRandomBytes } from '../../platform/crypto/index.js';
import type { Vote } from './trust.js';

/** An OpenAI-compatible chat endpoint configured for the verifier (PARAPET_VERIFIER_LLMS). */
export interface LlmModel {
  name: string;
  /** Up to and including the version segment, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** A cloud model: reached through the SSH tunnel, whatever host baseUrl names. */
  viaTunnel?: boolean;
}

export const CONSENSUS_PROMPT =
  'You check facts. For each numbered claim, answer true if it is correct, false if it is wrong, unknown if you cannot tell. Placeholders such as TKN_NAME_… stand for hidden values; judge the rest. Reply with JSON only: {"verdicts":["true","false","unknown",...]} in the order of the claims.';

export function parseModels(json: string): LlmModel[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('PARAPET_VERIFIER_LLMS must be a JSON array');
  }
  if (!Array.isArray(raw)) throw new Error('PARAPET_VERIFIER_LLMS must be a JSON array');
  return raw.map((m, i) => {
    const o = m as Partial<LlmModel>;
    if (!o || typeof o.baseUrl !== 'string' || typeof o.model !== 'string')
      throw new Error(`PARAPET_VERIFIER_LLMS[${i}] needs baseUrl and model`);
    return {
      name: typeof o.name === 'string' ? o.name : `${o.model}@${i}`,
      baseUrl: o.baseUrl.replace(/\/+$/, ''),
      model: o.model,
      ...(typeof o.apiKey === 'string' ? { apiKey: o.apiKey } : {}),
      ...(o.viaTunnel === true ? { viaTunnel: true } : {}),
    };
  });
}

/**
 * The claims as they leave the verifier: personal data replaced by DLP tokens (a fresh key per call, so
 * tokens link nothing across calls), with the organization's pattern bundle (custom patterns, allow-values)
 * when one was fetched. Nothing else of the response, the context or the sources is sent.
 */
export function tokenizeClaims(claims: string[], options: DetectOptions = {}): string[] {
  const map = createTokenMap();
  const key = secureRandomBytes(32);
  return claims.map((c) => tokenize(c, map, key, options).tokenized);
}

export function consensusMessages(claims: string[]): Array<{ role: string; content: string }> {
  return [
    { role: 'system', content: CONSENSUS_PROMPT },
    { role: 'user', content: claims.map((c, i) => `${i + 1}. ${c}`).join('\n') },
  ];
}

function readVerdicts(content: string, count: number): Vote[] | null {
  const m = /\{[\s\S]*\}/.exec(content);
  if (m) {
    try {
      const parsed = JSON.parse(m[0]) as { verdicts?: unknown };
      if (Array.isArray(parsed.verdicts) && parsed.verdicts.length === count)
        return parsed.verdicts.map((v) => normalizeVote(String(v)));
    } catch {
      // fall through to the line format
    }
  }
  const lines = [...content.matchAll(/^\s*(\d+)[.):]\s*(true|false|unknown)\b/gim)];
  if (lines.length !== count) return null;
  return lines.map((l) => normalizeVote(l[2]!));
}

function normalizeVote(v: string): Vote {
  const s = v.trim().toLowerCase();
  return s === 'true' ? 'true' : s === 'false' ? 'false' : 'unknown';
}

export interface AskOptions {
  timeoutMs: number;
  /** Where a tunnelled model is reached (the tunnel's local end), or null when no tunnel is up. */
  tunnelBase: string | null;
  fetch?: typeof fetch;
}

/**
 * Asks every model about every claim in parallel, one request per model; a model that fails, answers
 * something unreadable or is not back within the time limit abstains on every claim.
 */
export async function askModels(models: LlmModel[], claims: string[], opts: AskOptions): Promise<Vote[][]> {
  const doFetch = opts.fetch ?? fetch;
  const abstain = (): Vote[] => claims.map(() => 'abstain');
  const body = (m: LlmModel) =>
    JSON.stringify({ model: m.model, temperature: 0, messages: consensusMessages(claims) });
  return Promise.all(
    models.map(async (m) => {
      const base = m.viaTunnel ? tunnelled(m.baseUrl, opts.tunnelBase) : m.baseUrl;
      if (!base) return abstain();
      try {
        const res = await doFetch(`${base}/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(m.apiKey ? { authorization: `Bearer ${m.apiKey}` } : {}),
          },
          body: body(m),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) return abstain();
        const json = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
        const content = json.choices?.[0]?.message?.content;
        return (typeof content === 'string' && readVerdicts(content, claims.length)) || abstain();
      } catch {
        return abstain();
      }
    }),
  );
}

/** A cloud model's URL with its origin replaced by the tunnel's local end (the path stays). */
function tunnelled(baseUrl: string, tunnelBase: string | null): string | null {
  if (!tunnelBase) return null;
  const u = new URL(baseUrl);
  return `${tunnelBase}${u.pathname.replace(/\/+$/, '')}`;
}
