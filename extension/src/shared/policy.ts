import { CHAT_SITES, hostMatches } from './sites.js';

// The device's view of GET /api/v1/endpoint/config (docs/endpoint.md) and the decisions taken from it.
// Pure, so the service worker, the content script and the tests share one reading of the policy.

export type Enforcement = 'block' | 'warn' | 'log';

export interface AllowedService {
  domain: string;
  name?: string;
  conditions?: { requireDlp?: boolean; maxInputLength?: number; allowedDomains?: string[] };
}

export interface EndpointConfig {
  configVersion: number;
  device?: { id: string; userId?: string | null };
  policy: {
    enforcement: Enforcement;
    rules: {
      aiServices?: {
        mode: 'allowlist' | 'blocklist';
        allowed?: AllowedService[];
        blocked?: Array<{ domain: string; except?: string[] }>;
      };
      dataProtection?: {
        blockCopyPaste?: { enabled: boolean; patterns?: string[] };
        warnBeforeSubmit?: { enabled: boolean; threshold?: number };
        preventScreenshot?: boolean;
      };
      logging?: { logAllInteractions?: boolean; logBlockedAttempts?: boolean; retentionDays?: number };
    };
  };
  settings?: { heartbeatIntervalSeconds?: number; defaultEnforcement?: Enforcement };
  dns?: { blockPage?: { enabled?: boolean; message?: string; contactEmail?: string } };
  forceMode?: { enabled: boolean };
  [section: string]: unknown;
}

/** What the extension does before enrollment: protect locally, block nothing. */
export const DEFAULT_CONFIG: EndpointConfig = {
  configVersion: 0,
  policy: {
    enforcement: 'warn',
    rules: {
      dataProtection: {
        blockCopyPaste: { enabled: false, patterns: [] },
        warnBeforeSubmit: { enabled: true, threshold: 50 },
      },
      logging: { logAllInteractions: false, logBlockedAttempts: true },
    },
  },
};

export interface ServiceDecision {
  blocked: boolean;
  requireDlp: boolean;
  maxInputLength?: number;
  allowedDomains?: string[];
}

/** AI hosts the extension knows: the built-in chat sites plus any catalog section the server sends. */
export function knownAiHosts(config: EndpointConfig): string[] {
  const hosts = new Set(CHAT_SITES.flatMap((s) => s.hosts));
  const visit = (node: unknown, depth: number): void => {
    if (depth > 4 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['domains'])) for (const d of o['domains']) if (typeof d === 'string') hosts.add(d);
    if (typeof o['domain'] === 'string' && (o['status'] !== undefined || o['category'] !== undefined))
      hosts.add(o['domain']);
    for (const v of Object.values(o)) if (typeof v === 'object') visit(v, depth + 1);
  };
  for (const key of ['catalog', 'shadowAi', 'aiCatalog']) visit(config[key], 0);
  return [...hosts].map((h) => h.toLowerCase());
}

export function serviceDecision(host: string, config: EndpointConfig): ServiceDecision {
  const ai = config.policy.rules.aiServices;
  const allowed = ai?.allowed?.find((a) => hostMatches(host, a.domain));
  const cond = allowed?.conditions ?? {};
  const base: ServiceDecision = {
    blocked: false,
    requireDlp: cond.requireDlp === true,
    ...(cond.maxInputLength !== undefined ? { maxInputLength: cond.maxInputLength } : {}),
    ...(cond.allowedDomains !== undefined ? { allowedDomains: cond.allowedDomains } : {}),
  };
  if (!ai) return base;
  if (ai.mode === 'blocklist') {
    const hit = ai.blocked?.find((b) => hostMatches(host, b.domain));
    const excepted = hit?.except?.some((e) => hostMatches(host, e)) ?? false;
    return { ...base, blocked: hit !== undefined && !excepted && allowed === undefined };
  }
  const isAi = knownAiHosts(config).some((h) => hostMatches(host, h));
  const explicitlyBlocked = ai.blocked?.some((b) => hostMatches(host, b.domain)) ?? false;
  return { ...base, blocked: explicitlyBlocked || (isAi && allowed === undefined) };
}

/** Host names the policy blocks (for declarativeNetRequest), with their exceptions. */
export function blockedHosts(config: EndpointConfig): { block: string[]; except: string[] } {
  const ai = config.policy.rules.aiServices;
  if (!ai) return { block: [], except: [] };
  const except = (ai.blocked ?? []).flatMap((b) => b.except ?? []).map((d) => d.replace(/^\*\./, ''));
  const allowed = (ai.allowed ?? []).map((a) => a.domain.replace(/^\*\./, ''));
  const explicit = (ai.blocked ?? []).map((b) => b.domain.replace(/^\*\./, ''));
  if (ai.mode === 'blocklist') return { block: unique(explicit), except: unique([...except, ...allowed]) };
  const implicit = knownAiHosts(config).filter((h) => !allowed.some((a) => hostMatches(h, a)));
  return { block: unique([...explicit, ...implicit]), except: unique([...except, ...allowed]) };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs.map((x) => x.toLowerCase()))].sort();
}

// Policy pattern names (docs/endpoint.md) → the DLP engine's entity types.
const PASTE_PATTERNS: Record<string, string[]> = {
  CREDIT_CARD: ['CARD', 'CVV'],
  SSN: ['SSN', 'AVS', 'NINO', 'NIR', 'IT_FISCAL_CODE', 'DE_TAX_ID'],
  API_KEY: ['API_KEY'],
  PASSWORD: ['PASSWORD'],
  IBAN: ['IBAN'],
  EMAIL: ['EMAIL'],
  PHONE: ['PHONE'],
};

/** The entity types a paste may not carry under blockCopyPaste (empty when off). */
export function pasteBlockedTypes(config: EndpointConfig): Set<string> {
  const rule = config.policy.rules.dataProtection?.blockCopyPaste;
  if (!rule?.enabled) return new Set();
  return new Set((rule.patterns ?? []).flatMap((p) => PASTE_PATTERNS[p] ?? []));
}

export type SendAction = 'allow' | 'tokenize' | 'warn' | 'block';

/**
 * What happens to a send: tokens whenever personal data is present and tokenization is on (always when the
 * service requires DLP); otherwise the warnBeforeSubmit threshold with the policy's enforcement decides.
 */
export function sendAction(input: {
  config: EndpointConfig;
  decision: ServiceDecision;
  riskScore: number;
  findings: number;
  tokenizeChosen: boolean;
  inputLength: number;
}): { action: SendAction; reason: string } {
  const { config, decision } = input;
  const enforcement = config.policy.enforcement;
  if (decision.blocked && enforcement === 'block')
    return { action: 'block', reason: 'This AI service is blocked by your organization.' };
  if (decision.maxInputLength !== undefined && input.inputLength > decision.maxInputLength)
    return {
      action: enforcement === 'log' ? 'allow' : enforcement,
      reason: `The prompt is longer than the ${decision.maxInputLength} characters allowed here.`,
    };
  if (input.findings > 0 && (input.tokenizeChosen || decision.requireDlp))
    return { action: 'tokenize', reason: 'Personal data leaves as tokens.' };
  const warn = config.policy.rules.dataProtection?.warnBeforeSubmit;
  if (
    input.findings > 0 &&
    warn?.enabled &&
    input.riskScore >= (warn.threshold ?? 0) &&
    enforcement !== 'log'
  )
    return {
      action: enforcement,
      reason: `Risk ${input.riskScore} reaches the threshold of ${warn.threshold ?? 0}.`,
    };
  return { action: 'allow', reason: input.findings > 0 ? 'Sent as typed (logged).' : 'Nothing sensitive.' };
}
