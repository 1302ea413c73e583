import { createTokenMap, rehydrate, type TokenMap, tokenize } from '../../../src/engines/dlp/index.js';
import { riskScore } from '../../../src/engines/risk/index.js';
import { alertFindings, analyzePrompt, checkInjection, redactedPreview } from '../shared/analysis.js';
import {
  type FromPage,
  HANDSHAKE,
  type SendAnswer,
  type SendRequest,
  type ToPage,
} from '../shared/bridge.js';
import type { ToBackground } from '../shared/messages.js';
import {
  DEFAULT_CONFIG,
  type EndpointConfig,
  pasteBlockedTypes,
  protectionLocked,
  sendAction,
  serviceDecision,
  tokenizeByDefault,
} from '../shared/policy.js';
import { COMPOSER_SELECTOR, isComposerInputType } from '../shared/composer.js';
import { builtinSiteAt } from '../shared/sites.js';
import { DlpBar } from './bar.js';
import { watchFiles } from './files.js';
import { PromptHighlighter } from './highlight.js';

// ISOLATED world on AI chat sites: the DLP bar, the paste check, the decision for each send (asked by the
// MAIN-world hook), the local vault of this site's tokens and the rehydration of tokens shown in the page.

const DEBOUNCE_MS = 250;
const host = location.hostname;
const site = builtinSiteAt(host);
const platform = site?.name ?? host;
/**
 * Not one of the built-in sites: the background registered this script for an AI site of the config, and
 * the hook is generic (it asks about any request carrying what is typed here, which it is told as it goes).
 */
const generic = site === undefined;

let config: EndpointConfig = DEFAULT_CONFIG;
let disabled = false;
/**
 * The user's choice in the bar; until there is one, the site's default (tokenizeByDefault: on where a prompt
 * is the point of the page, off on the catalog's document and creative tools, whose saves carry the user's
 * work and would store tokens in it).
 */
let userChoice: boolean | undefined;
const tokenizeChosen = (): boolean => userChoice ?? tokenizeByDefault(host, config);
let port: MessagePort | null = null;
const bar = new DlpBar();
const highlighter = new PromptHighlighter();
const map: TokenMap = createTokenMap();
const sessionKey = crypto.getRandomValues(new Uint8Array(32));

const send = (m: ToBackground): Promise<unknown> => chrome.runtime.sendMessage(m).catch(() => undefined);

// The hook's port arrives before any page script runs; later handshakes (a page forging one) are ignored.
addEventListener('message', function onHandshake(e: MessageEvent) {
  if (e.source !== window || e.data?.type !== HANDSHAKE || !e.ports[0] || port) return;
  removeEventListener('message', onHandshake);
  port = e.ports[0];
  port.onmessage = (m: MessageEvent<FromPage>) => {
    if (m.data.op === 'send') void answer(m.data);
  };
  port.start();
  pushVault();
});

function pushVault(): void {
  const entries = [...map.byToken].map(([token, e]) => ({ token, type: e.type, value: e.value }));
  port?.postMessage({ op: 'vault', entries } satisfies ToPage);
}

// preventScreenshot: no page can stop a screenshot (OS tools, other applications); what a browser lets a
// page stop is printing it (and "Save as PDF"): under that rule the AI site prints blank.
const printGuard = document.createElement('style');
printGuard.textContent = '@media print { html { display: none !important; } }';

function guardPrinting(on: boolean): void {
  if (on && !printGuard.isConnected) (document.head ?? document.documentElement).append(printGuard);
  else if (!on) printGuard.remove();
}

async function loadState(): Promise<void> {
  const s = await chrome.storage.local.get(['config', 'disabledSites']);
  config = (s['config'] as EndpointConfig | undefined) ?? DEFAULT_CONFIG;
  // A site the user switched off stays protected when the organization holds protection on there.
  disabled =
    ((s['disabledSites'] as string[] | undefined) ?? []).includes(host) && !protectionLocked(host, config);
  if (disabled) highlighter.hide();
  guardPrinting(config.policy.rules.dataProtection?.preventScreenshot === true && !disabled);
  const saved = (await send({ kind: 'vault-get', origin: location.origin })) as
    | Array<{ token: string; type: string; value: string }>
    | undefined;
  const loaded = createTokenMap(saved ?? []);
  let added = 0;
  for (const [k, v] of loaded.byToken) {
    if (!map.byToken.has(k)) added++;
    map.byToken.set(k, v);
  }
  for (const [k, v] of loaded.byValue) if (!map.byValue.has(k)) map.byValue.set(k, v);
  pushVault();
  // What the page showed before the vault arrived (a conversation rendered at load, from the site's
  // history) was looked at with tokens still unknown: the observer below sees only later changes.
  if (added > 0 && document.documentElement) rehydrateNode(document.documentElement);
}
const ready = loadState();
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && (changes['config'] || changes['disabledSites'])) void loadState();
});

// ---- the bar, as the user types or pastes ----

let composer: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function composerText(el: HTMLElement): string {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el.value : el.innerText;
}

function isComposer(el: EventTarget | null): el is HTMLElement {
  return (
    el instanceof HTMLTextAreaElement ||
    (el instanceof HTMLElement && el.isContentEditable) ||
    (el instanceof HTMLInputElement && isComposerInputType(el.type))
  );
}

/** Tells the generic hook what is typed (and the values found), so it recognises the request carrying it. */
function tellHook(text: string, values: string[] = []): void {
  if (generic && port && text.trim().length > 0)
    port.postMessage({ op: 'prompt', text, values } satisfies ToPage);
}

function refresh(): void {
  if (!composer || disabled) return;
  const text = composerText(composer);
  const a = analyzePrompt(text);
  tellHook(
    text,
    a.entities.map((e) => e.value),
  );
  highlighter.show(composer, text, a.entities);
  const decision = serviceDecision(host, config);
  const { action } = sendAction({
    config,
    decision,
    riskScore: a.risk,
    findings: a.entities.length,
    tokenizeChosen: tokenizeChosen(),
    inputLength: text.length,
  });
  bar.attach(composer);
  bar.show({
    counts: a.counts,
    risk: a.risk,
    multiplier: a.multiplier,
    action: { allow: 'send', tokenize: 'send with tokens', warn: 'ask before sending', block: 'block' }[
      action
    ],
    tokenize: tokenizeChosen() || decision.requireDlp,
    tokenizeLocked: decision.requireDlp,
  });
}

bar.onToggleTokenize = (on) => {
  userChoice = on;
  if (!on) void send({ kind: 'log', log: { kind: 'override', domain: host, detail: { tokenize: false } } });
  refresh();
};

document.addEventListener(
  'input',
  (e) => {
    const target = e.composedPath()[0] ?? e.target;
    const el =
      target instanceof Node ? (target instanceof HTMLElement ? target : target.parentElement) : null;
    const c = el?.closest(COMPOSER_SELECTOR) ?? null;
    if (!isComposer(c)) return;
    composer = c;
    // At once, not debounced: a prompt sent right after it was typed must still be recognised.
    if (!disabled) tellHook(composerText(c));
    highlighter.hide();
    clearTimeout(timer);
    timer = setTimeout(refresh, DEBOUNCE_MS);
  },
  true,
);

// ---- paste: injection check and blockCopyPaste ----

addEventListener(
  'paste',
  (e: ClipboardEvent) => {
    if (disabled) return;
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (text.length === 0) return;
    const forbidden = pasteBlockedTypes(config);
    if (forbidden.size > 0) {
      const hit = analyzePrompt(text).entities.filter((en) => forbidden.has(en.type));
      if (hit.length > 0 && config.policy.enforcement !== 'log') {
        e.preventDefault();
        e.stopImmediatePropagation();
        bar.say(`Paste blocked: it contains ${[...new Set(hit.map((h) => h.type))].join(', ')}.`, 'error');
        void send({
          kind: 'log',
          log: { kind: 'paste_blocked', domain: host, detail: { types: hit.map((h) => h.type).join(',') } },
        });
        void send({ kind: 'stat', domain: host, blockedReason: 'policy_violation' });
        return;
      }
    }
    reportInjection(text, 'pasted text', e);
  },
  true,
);

/** Warns (or, under enforcement block, refuses) text that reads as a prompt injection. */
export function reportInjection(text: string, what: string, e?: Event): boolean {
  const inj = checkInjection(text);
  if (!inj.injection) return false;
  const block = config.policy.enforcement === 'block' && inj.severity !== 'low';
  if (block && e) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
  const cats = inj.categories.join(', ') || 'injection';
  bar.say(
    `Possible prompt injection in the ${what} (${cats}, score ${inj.score})${block ? ': blocked.' : '.'}`,
    block ? 'error' : 'warn',
  );
  if (composer) bar.attach(composer);
  else bar.attach(document.activeElement ?? document.body);
  void send({
    kind: 'log',
    log: { kind: block ? 'blocked' : 'warned', domain: host, detail: { injection: true, score: inj.score } },
  });
  return true;
}

watchFiles({
  onChecking: (names) => {
    if (!disabled) {
      if (!composer) bar.attach(document.activeElement ?? document.body);
      bar.say(`Checking ${names.join(', ')}…`);
    }
  },
  onText: (text, name, method) => disabled || checkFileText(text, name, method),
  onFailure: (name, reason) => {
    if (disabled) return true;
    // A file that could not be read is refused under enforcement block, let through (with a warning) else.
    const block = config.policy.enforcement === 'block';
    bar.say(
      `File ${name} could not be checked (${reason})${block ? ': not uploaded.' : '.'}`,
      block ? 'error' : 'warn',
    );
    return !block;
  },
});

function checkFileText(text: string, name: string, method: string): boolean {
  const a = analyzePrompt(text);
  const inj = checkInjection(text);
  const blockInjection = inj.injection && config.policy.enforcement === 'block';
  if (inj.injection) reportInjection(text, `file ${name}`);
  else if (a.entities.length > 0)
    bar.say(
      `File ${name} (${method}): ${a.counts.map((c) => `${c.type} ×${c.count}`).join(', ')} · Risk ${a.risk}/100.`,
      'warn',
    );
  else bar.say(`File ${name} (${method}): no personal data found.`);
  const found = alertFindings(a.entities);
  if (found) {
    void send({
      kind: 'alert',
      alert: {
        ...found,
        domain: host,
        action: 'warned',
        findingsCount: a.entities.length,
        redactedPreview: `file: ${redactedPreview(text, a.entities, 120)}`,
      },
    });
  }
  return !blockInjection;
}

// ---- each send, asked by the hook ----

let lastReported = '';

async function answer(req: SendRequest): Promise<void> {
  const reply = (a: Omit<SendAnswer, 'op' | 'id'>) => port?.postMessage({ op: 'answer', id: req.id, ...a });
  try {
    await ready;
    if (disabled) return reply({ action: 'allow' });
    const started = performance.now();
    const analyses = req.texts.map((t) => analyzePrompt(t));
    const entities = analyses.flatMap((a) => a.entities);
    const risk = riskScore(entities.map((e) => e.type)).score;
    const decision = serviceDecision(host, config);
    const inputLength = req.texts.reduce((n, t) => n + t.length, 0);
    const chosen = sendAction({
      config,
      decision,
      riskScore: risk,
      findings: entities.length,
      tokenizeChosen: tokenizeChosen(),
      inputLength,
    });
    // A body the hook cannot rewrite (multipart, binary) may leave only when it needs no token.
    const { action, reason } =
      req.opaque && chosen.action === 'tokenize'
        ? { action: 'block' as const, reason: 'The prompt would leave in a form Parapet cannot tokenize.' }
        : chosen;
    void send({ kind: 'stat', domain: host });
    const found = alertFindings(entities);
    const alert = (a: 'blocked' | 'warned' | 'redacted' | 'logged') =>
      found &&
      send({
        kind: 'alert',
        alert: {
          ...found,
          domain: host,
          action: a,
          findingsCount: entities.length,
          redactedPreview: redactedPreview(req.texts[req.texts.length - 1] ?? '', analyses.at(-1)!.entities),
        },
      });
    if (action === 'block') {
      bar.say(`Not sent: ${reason}`, 'error');
      void alert('blocked');
      void send({
        kind: 'stat',
        domain: host,
        blockedReason: decision.blocked ? 'unapproved_service' : 'dlp_violation',
      });
      return reply({ action: 'block', reason });
    }
    if (action === 'warn') {
      const ok = await bar.ask(`${reason} Send as typed?`);
      void alert(ok ? 'warned' : 'blocked');
      if (!ok) {
        void send({ kind: 'stat', domain: host, blockedReason: 'dlp_violation' });
        return reply({ action: 'block', reason: 'Cancelled by the user.' });
      }
      void send({ kind: 'log', log: { kind: 'override', domain: host, detail: { risk } } });
      return reply({ action: 'allow' });
    }
    if (action === 'allow') {
      if (found) void alert('logged');
      if (config.policy.rules.logging?.logAllInteractions)
        void send({
          kind: 'log',
          log: { kind: 'interaction', domain: host, detail: { chars: inputLength } },
        });
      return reply({ action: 'allow' });
    }
    const results = req.texts.map((t) => tokenize(t, map, sessionKey));
    const tokens = results.flatMap((r) => r.tokens);
    pushVault();
    void send({
      kind: 'vault-put',
      origin: location.origin,
      entries: [...map.byToken].map(([token, e]) => ({ token, type: e.type, value: e.value })),
    });
    reply({ action: 'tokenize', texts: results.map((r) => r.tokenized) });
    // On a generic site the same prompt may leave more than once (a draft saved, then sent): it is
    // tokenized each time, reported once.
    const signature = results.map((r) => r.tokenized).join('\u0000');
    if (generic && signature === lastReported) return;
    lastReported = signature;
    bar.say(
      `Sent with ${tokens.length} token${tokens.length === 1 ? '' : 's'}; the answer is shown with your values.`,
    );
    void alert('redacted');
    void send({
      kind: 'log',
      log: { kind: 'redacted', domain: host, detail: { tokens: tokens.length, risk } },
    });
    void send({
      kind: 'proof',
      proof: {
        platform,
        tokenizedPrompt: results.at(-1)!.tokenized,
        tokens: tokens.map((t) => ({ token: t.token, type: t.type, domain: t.domain })),
        riskScore: risk,
        processingMs: Math.round(performance.now() - started),
      },
    });
  } catch (err) {
    // Fail closed: an error here blocks the send.
    bar.say(`Not sent: the protection failed (${err instanceof Error ? err.message : 'error'}).`, 'error');
    reply({ action: 'block', reason: 'protection error' });
  }
}

// ---- tokens shown in the page come back as the user's values ----

function rehydrateNode(node: Node): void {
  if (map.byToken.size === 0) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let n = walker.currentNode as Node | null; n; n = walker.nextNode()) {
    if (n.nodeType !== Node.TEXT_NODE) continue;
    const t = n.nodeValue ?? '';
    if (!/tkn/i.test(t)) continue;
    const r = rehydrate(t, map);
    if (r.restored > 0) n.nodeValue = r.text;
  }
}

new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === 'characterData') rehydrateNode(r.target);
    else for (const n of r.addedNodes) rehydrateNode(n);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
