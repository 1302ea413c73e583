import { aiSiteHosts, type EndpointConfig } from '../shared/policy.js';
import { chatHosts } from '../shared/sites.js';

// The content scripts (the bar, the decisions) and the MAIN-world request hook on the AI sites the config
// names beyond the built-in six: the manifest's match patterns are fixed at build time, so these are
// registered with chrome.scripting at run time and kept in step with each config the device receives.

/** The ids of the two registered scripts; the manifest's own scripts have none. */
export const SCRIPT_IDS = { isolated: 'parapet-ai-isolated', main: 'parapet-ai-main' } as const;

export interface AiSitePatterns {
  matches: string[];
  /** the built-in sites: the manifest already injects there, and twice would tokenize twice */
  excludeMatches: string[];
}

/** Match patterns of the config's AI sites: each host and its subdomains, any scheme. */
export function aiSitePatterns(config: EndpointConfig): AiSitePatterns {
  const builtin = new Set(chatHosts());
  const matches = aiSiteHosts(config)
    .filter((h) => !builtin.has(h))
    // an IP address has no subdomains (and `*.` before one is no valid pattern)
    .map((h) => (/^\d+(?:\.\d+){3}$/.test(h) ? `*://${h}/*` : `*://*.${h}/*`));
  return { matches, excludeMatches: [...builtin].map((h) => `*://${h}/*`) };
}

type Script = chrome.scripting.RegisteredContentScript;

function scripts(p: AiSitePatterns): Script[] {
  const common = {
    matches: p.matches,
    excludeMatches: p.excludeMatches,
    runAt: 'document_start' as const,
    persistAcrossSessions: true,
  };
  // Same order as the manifest: the isolated script listens before the hook hands over its port.
  return [
    { id: SCRIPT_IDS.isolated, js: ['content.js'], ...common },
    { id: SCRIPT_IDS.main, js: ['page-hook.js'], world: 'MAIN' as const, ...common },
  ];
}

let chain: Promise<unknown> = Promise.resolve();

/**
 * Registers, updates or removes the two scripts so they match the config's AI sites; returns the match
 * patterns now registered. Calls run one after another (a config fetch and a start-up may overlap).
 * Pages already open keep what they were loaded with until they are reloaded.
 */
export function syncAiSiteScripts(config: EndpointConfig): Promise<string[]> {
  const run = chain.then(async () => {
    const want = aiSitePatterns(config);
    const ids = Object.values(SCRIPT_IDS);
    const have = await chrome.scripting.getRegisteredContentScripts({ ids });
    const current = have.find((s) => s.id === SCRIPT_IDS.main)?.matches ?? [];
    if (want.matches.length === 0) {
      if (have.length > 0) await chrome.scripting.unregisterContentScripts({ ids: have.map((s) => s.id) });
      return [];
    }
    // Unregister and register again rather than update: both scripts change together, in their order.
    if (have.length === ids.length && sameList(current, want.matches)) return current;
    if (have.length > 0) await chrome.scripting.unregisterContentScripts({ ids: have.map((s) => s.id) });
    await chrome.scripting.registerContentScripts(scripts(want));
    return want.matches;
  });
  chain = run.catch(() => undefined);
  return run;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  const sb = [...b].sort();
  return a.length === b.length && [...a].sort().every((x, i) => x === sb[i]);
}
