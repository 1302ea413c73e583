import { afterEach, beforeEach } from 'node:test';
import { localArea } from './chrome-storage.js';

// The chrome.* the service worker's enrollment modules use (local and managed storage, the dynamic block
// rules, the registered AI-site scripts), as stand-ins a unit test reads back: which rules and scripts are
// in force now, and how often they were written. The real ones are exercised by e2e.test.ts.

type Rule = chrome.declarativeNetRequest.Rule;

export interface WorkerChrome {
  /** the dynamic block rules in force */
  rules: Rule[];
  /** writes of the block rules (dynamic and session) */
  ruleUpdates: number;
  /** the match patterns of the registered AI-site scripts (none registered: empty) */
  sites: string[];
  /**
   * Runs before each call to the block rules or the site scripts; a test sets it to run something at that
   * point (another enrollment, say) and have the caller wait for it.
   */
  beforePolicyCall?: () => Promise<void>;
}

// Enum members read at run time (RuleActionType.BLOCK …) answer their own names.
const names = new Proxy({}, { get: (_t, p) => String(p) });

/** Installs the stand-ins as globalThis.chrome over `storage` (changed in place) and `managed`. */
export function stubWorkerChrome(
  storage: Record<string, unknown>,
  managed: Record<string, unknown> = {},
): WorkerChrome {
  const w: WorkerChrome = { rules: [], ruleUpdates: 0, sites: [] };
  const hook = async () => {
    await w.beforePolicyCall?.();
  };
  (globalThis as { chrome?: unknown }).chrome = {
    storage: {
      local: localArea(storage),
      managed: {
        async get() {
          return structuredClone(managed);
        },
      },
    },
    declarativeNetRequest: {
      RuleActionType: names,
      ResourceType: names,
      async getDynamicRules() {
        await hook();
        return structuredClone(w.rules);
      },
      async updateDynamicRules(u: { removeRuleIds?: number[]; addRules?: Rule[] }) {
        await hook();
        w.ruleUpdates++;
        w.rules = [...w.rules.filter((r) => !u.removeRuleIds?.includes(r.id)), ...(u.addRules ?? [])];
      },
      async getSessionRules() {
        return [];
      },
      async updateSessionRules() {
        w.ruleUpdates++;
      },
    },
    scripting: {
      async getRegisteredContentScripts() {
        await hook();
        return w.sites.length > 0
          ? [
              { id: 'parapet-ai-isolated', matches: w.sites },
              { id: 'parapet-ai-main', matches: w.sites },
            ]
          : [];
      },
      async unregisterContentScripts() {
        await hook();
        w.sites = [];
      },
      async registerContentScripts(scripts: Array<{ matches: string[] }>) {
        await hook();
        w.sites = [...(scripts[0]?.matches ?? [])];
      },
    },
  };
  return w;
}

/** A promise and the hand that settles it: the test decides when an answer arrives. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * For each test of the file: storage seeded afresh, the stand-ins over it (`managed` for chrome.storage.managed),
 * and globalThis.fetch (which the test replaces) put back afterwards. The fields are replaced before each test.
 */
export function perTest(
  seed: () => Record<string, unknown>,
  managed: () => Record<string, unknown> = () => ({}),
): { storage: Record<string, unknown>; worker: WorkerChrome } {
  const realFetch = globalThis.fetch;
  const t = {
    storage: {} as Record<string, unknown>,
    worker: { rules: [], ruleUpdates: 0, sites: [] } as WorkerChrome,
  };
  beforeEach(() => {
    t.storage = seed();
    t.worker = stubWorkerChrome(t.storage, managed());
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    delete (globalThis as { chrome?: unknown }).chrome;
  });
  return t;
}
