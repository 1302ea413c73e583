import { DEFAULT_WARN_BEFORE_SUBMIT } from '../../../src/engines/risk/warn-before-submit.js';
import { builtinSiteAt, CHAT_SITES, chatHosts, hostMatches } from './sites.js';

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
  /** The organization enrolled in (servers from 2026-11-28 on): its name is what the popup shows. */
  organization?: { id: string; name: string };
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
  settings?: {
    heartbeatIntervalSeconds?: number;
    defaultEnforcement?: Enforcement;
    /** false: the organization does not let users unenroll their devices (the server refuses with 403) */
    allowUserUnenroll?: boolean;
  };
  dns?: { blockPage?: { enabled?: boolean; message?: string; contactEmail?: string } };
  forceMode?: { enabled: boolean };
  [section: string]: unknown;
}

/** Inlined by the build (extension/build.ts): the domains of the catalog the server ships. */
declare const PARAPET_CATALOG_DOMAINS: string[] | undefined;
/** Inlined by the build: each catalog domain's category ("LLM Chat", "Writing", …). */
declare const PARAPET_CATALOG_CATEGORIES: Record<string, string> | undefined;

/** The shipped catalog's categories (empty outside a build, in unit tests). */
const SHIPPED_CATEGORIES: Record<string, string> =
  typeof PARAPET_CATALOG_CATEGORIES === 'undefined' ? {} : PARAPET_CATALOG_CATEGORIES;

/**
 * What the extension does before enrollment: protect locally (on the built-in sites and the shipped
 * catalog's), block nothing. Outside a build (unit tests) the catalog is empty.
 */
export const DEFAULT_CONFIG: EndpointConfig = {
  configVersion: 0,
  shadowAi: {
    knownDomains: typeof PARAPET_CATALOG_DOMAINS === 'undefined' ? [] : PARAPET_CATALOG_DOMAINS,
    categories: SHIPPED_CATEGORIES,
    allowed: [],
    blocked: [],
    monitored: [],
  },
  policy: {
    enforcement: 'warn',
    rules: {
      dataProtection: {
        blockCopyPaste: { enabled: false, patterns: [] },
        warnBeforeSubmit: { ...DEFAULT_WARN_BEFORE_SUBMIT },
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
  // The server's shadowAi section lists plain host names (docs/shadow-ai.md, "Enforcement"): the catalog's
  // domains and the organization's decisions, which may name discovered services outside the catalog.
  const section = config['shadowAi'];
  if (section !== null && typeof section === 'object')
    for (const key of ['knownDomains', 'allowed', 'blocked', 'monitored']) {
      const list = (section as Record<string, unknown>)[key];
      if (Array.isArray(list)) for (const d of list) if (typeof d === 'string') hosts.add(d);
    }
  return [...new Set([...hosts].map((h) => h.toLowerCase()))];
}

/** A host name a match pattern can carry (letters, digits, dots, hyphens; punycode for the others). */
export const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Every host the config marks as AI: the catalog and its decisions (knownAiHosts) plus the services the
 * policy names in its allow and block lists. These get the DLP bar and the request hook, not only the
 * block rules and the radar; `*.` wildcards become the domain itself (which matches its subdomains).
 */
export function aiSiteHosts(config: EndpointConfig): string[] {
  const hosts = [...knownAiHosts(config).map(bareHost), ...policyNamedHosts(config)];
  return unique(hosts.filter((h) => HOST_NAME.test(h)));
}

/**
 * A listed domain as a host name: lower case, without a `*.` wildcard (the domain matches its subdomains)
 * or a final dot.
 */
function bareHost(domain: string): string {
  return domain.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
}

/** The built-in site or the config's AI site a host belongs to (null when the extension leaves it alone). */
export function aiSiteOf(host: string, config: EndpointConfig): { name: string; builtin: boolean } | null {
  const site = CHAT_SITES.find((s) => s.hosts.some((h) => hostMatches(host, h)));
  if (site) return { name: site.name, builtin: true };
  return aiSiteHosts(config).some((h) => hostMatches(host, h)) ? { name: host, builtin: false } : null;
}

/** The config's `shadowAi.categories` (domain → category); empty when the server sends none. */
function sentCategories(config: EndpointConfig): Record<string, unknown> {
  const section = config['shadowAi'];
  if (section === null || typeof section !== 'object') return {};
  const sent = (section as Record<string, unknown>)['categories'];
  return sent !== null && typeof sent === 'object' && !Array.isArray(sent)
    ? (sent as Record<string, unknown>)
    : {};
}

/**
 * The catalog category of a host: the config's `shadowAi.categories` (the shipped catalog and the
 * organization's own entries, domain → category) over the catalog inlined at build time (a server that
 * sends no categories); the most specific listed domain wins (notebooklm.google.com is Writing even if
 * google.com were listed). Undefined for a host outside the catalog.
 */
export function aiCategoryOf(host: string, config: EndpointConfig): string | undefined {
  let best: [string, string] | undefined;
  const consider = (domain: string, category: unknown) => {
    if (typeof category !== 'string' || !hostMatches(host, domain)) return;
    const d = domain.toLowerCase().replace(/^\*\./, '');
    // longer wins; at equal length the config's entry (seen last) replaces the shipped one
    if (!best || d.length >= best[0].length) best = [d, category];
  };
  for (const [d, c] of Object.entries(SHIPPED_CATEGORIES)) consider(d, c);
  for (const [d, c] of Object.entries(sentCategories(config))) consider(d, c);
  return best?.[1];
}

/**
 * Catalog categories whose pages exist to send a prompt: what is typed there is a question for a model, so
 * a token in its place costs nothing. The others (Writing, Image Gen, Video Gen, Audio/Voice) are document
 * and creative tools: what is typed is the user's work, saved by the page's own requests (a Notion page, a
 * Grammarly document), and a token there would be stored in place of the user's text.
 */
export const PROMPT_CATEGORIES: ReadonlySet<string> = new Set([
  'LLM Chat',
  'Search',
  'Code Assistant',
  'Enterprise',
]);

/** The domains the endpoint policy names in its AI-service lists (allowed and blocked). */
function policyNamedHosts(config: EndpointConfig): string[] {
  const ai = config.policy.rules.aiServices;
  return [...(ai?.allowed ?? []), ...(ai?.blocked ?? [])].map((a) => bareHost(a.domain));
}

/**
 * Whether tokenize-before-send starts ON on a host (docs/extension.md, "Tokenize by default"): the built-in
 * chat sites; a catalog host of a prompt category; a host the policy names in its AI-service lists that the
 * catalog does not class otherwise (the organization named it as an AI service; it is no known document
 * tool). A catalog host of another category starts OFF: the bar still shows, the user may switch tokens on,
 * and a policy's requireDlp still forces them (sendAction).
 */
export function tokenizeByDefault(host: string, config: EndpointConfig): boolean {
  if (builtinSiteAt(host)) return true;
  const category = aiCategoryOf(host, config);
  if (category !== undefined) return PROMPT_CATEGORIES.has(category);
  return policyNamedHosts(config).some((d) => hostMatches(host, d));
}

/** An API host (api.openai.com, generativelanguage.googleapis.com): called by code, never a chat page. */
export function isApiHost(host: string): boolean {
  return host
    .toLowerCase()
    .split('.')
    .some((label) => label === 'api' || label === 'googleapis' || /^api-/.test(label));
}

/**
 * The hosts force mode sends to the protected chat, with the hosts to leave alone inside them: the built-in
 * chat sites and the hosts the policy names that the catalog does not class otherwise (`hosts`: with their
 * subdomains), and the catalog's "LLM Chat" domains (`exact`: each host itself and its `www.` only, since a
 * catalog entry names a vendor's or a CDN's domain whose other hosts, docs.*, help.*, files.*, are not the
 * chat); never an API host, never another category, never a host the policy blocks (the block page wins: it
 * says why). `exclude` holds what lies under a `hosts` entry but is none of these: blocked hosts, catalog
 * domains of another category, and the `api.` host of each one.
 */
export function forceModeHosts(config: EndpointConfig): {
  hosts: string[];
  exact: string[];
  exclude: string[];
} {
  const listed = [...Object.keys(SHIPPED_CATEGORIES), ...Object.keys(sentCategories(config))];
  const chatCatalog = listed.filter((d) => aiCategoryOf(d, config) === 'LLM Chat');
  const named = policyNamedHosts(config).filter((d) => {
    const c = aiCategoryOf(d, config);
    return c === undefined || c === 'LLM Chat';
  });
  const enforced = config.policy.enforcement !== 'log';
  const { block } = enforced ? blockedHosts(config) : { block: [] as string[] };
  const redirectable = (h: string) =>
    HOST_NAME.test(h) && !isApiHost(h) && !(enforced && serviceDecision(h, config).blocked);
  const hosts = unique([...chatHosts(), ...named]).filter(redirectable);
  // DNR matches subdomains too: a blocked host, an API host or a catalog domain of another category under a
  // redirected one must stay out of the rule.
  const under = (d: string) => hosts.some((h) => d !== h && hostMatches(d, h));
  const exclude = unique([
    ...block.filter(under),
    ...listed.filter((d) => under(d) && aiCategoryOf(d, config) !== 'LLM Chat'),
    ...hosts.map((h) => `api.${h}`),
  ]);
  const covered = (d: string) => hosts.some((h) => hostMatches(d, h));
  const exact = unique(chatCatalog.flatMap((d) => (d.startsWith('www.') ? [d] : [d, `www.${d}`]))).filter(
    (d) => !covered(d) && redirectable(d),
  );
  return { hosts, exact, exclude };
}

type CatalogDecision = 'allow' | 'block' | 'monitor';

/** The organization's catalog decisions (the config's shadowAi section), domain by domain. */
function catalogDecisions(config: EndpointConfig): Map<string, CatalogDecision> {
  const out = new Map<string, CatalogDecision>();
  const section = config['shadowAi'];
  if (section === null || typeof section !== 'object') return out;
  const lists: Array<[string, CatalogDecision]> = [
    ['allowed', 'allow'],
    ['blocked', 'block'],
    ['monitored', 'monitor'],
  ];
  for (const [key, decision] of lists) {
    const list = (section as Record<string, unknown>)[key];
    if (Array.isArray(list))
      for (const d of list)
        if (typeof d === 'string') out.set(d.toLowerCase().replace(/^\*\./, ''), decision);
  }
  return out;
}

/** The catalog decision for a host: the most specific listed domain wins (docs/shadow-ai.md). */
export function catalogDecision(host: string, config: EndpointConfig): CatalogDecision | undefined {
  let best: [string, CatalogDecision] | undefined;
  for (const [domain, decision] of catalogDecisions(config))
    if (hostMatches(host, domain) && (!best || domain.length > best[0].length)) best = [domain, decision];
  return best?.[1];
}

/**
 * Whether a host is blocked, and the conditions the policy sets for it. The endpoint policy comes first (an
 * allowed entry or an exception of it is never blocked by the catalog); then the catalog decisions.
 */
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
  const catalog = catalogDecision(host, config);
  if (!ai) return { ...base, blocked: catalog === 'block' };
  if (ai.mode === 'blocklist') {
    const hit = ai.blocked?.find((b) => hostMatches(host, b.domain));
    const excepted = hit?.except?.some((e) => hostMatches(host, e)) ?? false;
    const byPolicy = hit !== undefined && !excepted;
    return { ...base, blocked: allowed === undefined && (byPolicy || (!excepted && catalog === 'block')) };
  }
  const isAi = knownAiHosts(config).some((h) => hostMatches(host, h));
  const explicitlyBlocked = ai.blocked?.some((b) => hostMatches(host, b.domain)) ?? false;
  // In allowlist mode a service the organization approved in its catalog counts as allowed.
  return { ...base, blocked: explicitlyBlocked || (isAi && allowed === undefined && catalog !== 'allow') };
}

/**
 * Whether the organization holds protection on for a host, so the popup offers no switch and a switch made
 * before (stored in disabledSites) no longer counts: the service requires DLP (the bar's Tokens switch is
 * locked there too) or the policy's enforcement is `block` (no override is offered anywhere under it).
 */
export function protectionLocked(host: string, config: EndpointConfig): boolean {
  return config.policy.enforcement === 'block' || serviceDecision(host, config).requireDlp;
}

/**
 * Host names to block (for declarativeNetRequest), with the exceptions that override them, and the blocked
 * hosts inside an exception (a more specific catalog decision), which the exception must leave blocked.
 */
export function blockedHosts(config: EndpointConfig): {
  block: string[];
  except: string[];
  exceptNot: string[];
} {
  const ai = config.policy.rules.aiServices;
  const decisions = catalogDecisions(config);
  const strip = (d: string) => d.toLowerCase().replace(/^\*\./, '');
  const except = (ai?.blocked ?? []).flatMap((b) => b.except ?? []).map(strip);
  const allowed = (ai?.allowed ?? []).map((a) => strip(a.domain));
  const explicit = (ai?.blocked ?? []).map((b) => strip(b.domain));
  const policyAllows = (h: string) => [...allowed, ...except].some((a) => hostMatches(h, a));
  const catalogBlocked = [...decisions].filter(([d, v]) => v === 'block' && !policyAllows(d)).map(([d]) => d);
  let block: string[];
  if (!ai || ai.mode === 'blocklist') block = unique([...explicit, ...catalogBlocked]);
  else {
    const implicit = knownAiHosts(config).filter(
      (h) => !allowed.some((a) => hostMatches(h, a)) && catalogDecision(h, config) !== 'allow',
    );
    block = unique([...explicit, ...implicit, ...catalogBlocked]);
  }
  // A catalog decision for a subdomain of a blocked host carves it out (most specific wins): approved, or
  // monitored where the policy does not allow only what it lists. Never under the policy's own blocks: the
  // policy comes first (serviceDecision), and a carve there let the page load only for every send to fail.
  const carve = [...decisions]
    .filter(
      ([d, v]) => (v === 'allow' || (v === 'monitor' && ai?.mode !== 'allowlist')) && !block.includes(d),
    )
    .map(([d]) => d)
    .filter((d) => block.some((b) => hostMatches(d, b)) && !explicit.some((b) => hostMatches(d, b)));
  const exceptNot = block.filter((b) => carve.some((c) => b !== c && hostMatches(b, c)));
  return { block, except: unique([...except, ...allowed, ...carve]), exceptNot };
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
 * The warn-before-submit rule in force: the policy's, or the built-in one when no policy sets it (a server
 * config whose policies leave it out, or none applies). An enrolled device is never less strict than the
 * unenrolled one for want of a field.
 */
export function warnRule(config: EndpointConfig): { enabled: boolean; threshold: number } {
  const set = config.policy.rules.dataProtection?.warnBeforeSubmit;
  return set === undefined
    ? { ...DEFAULT_WARN_BEFORE_SUBMIT }
    : { enabled: set.enabled, threshold: set.threshold ?? DEFAULT_WARN_BEFORE_SUBMIT.threshold };
}

/**
 * What happens to a send: tokens whenever personal data is present and tokenization is on (always when the
 * service requires DLP); otherwise the warnBeforeSubmit threshold with the policy's enforcement decides.
 * Under `block` the threshold holds even where the policy switched the warning off: a prompt whose risk
 * reaches it never leaves in clear (the user may switch tokens on and send it tokenized); `enabled` only
 * says whether `warn` asks first.
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
  const warn = warnRule(config);
  if (
    input.findings > 0 &&
    (warn.enabled || enforcement === 'block') &&
    input.riskScore >= warn.threshold &&
    enforcement !== 'log'
  )
    return {
      action: enforcement,
      reason:
        enforcement === 'block'
          ? `Risk ${input.riskScore} reaches the threshold of ${warn.threshold}: switch tokens on to send it.`
          : `Risk ${input.riskScore} reaches the threshold of ${warn.threshold}.`,
    };
  return { action: 'allow', reason: input.findings > 0 ? 'Sent as typed (logged).' : 'Nothing sensitive.' };
}
