import { blockedHosts, type EndpointConfig, forceModeHosts } from '../shared/policy.js';

// The policy and the catalog decisions as declarativeNetRequest dynamic rules: blocked AI services open the
// block page (one rule per host, so the page can name it), their API calls from other pages fail; force
// mode sends the AI chat sites to the dashboard's protected chat. Exceptions win over blocks (except the
// blocked hosts inside an exception: the most specific decision wins); blocks win over force mode, which
// leaves the blocked hosts out of its rule (forceModeHosts) rather than by priority: its rule must rank
// above the exceptions' allow rule, or an allowed chat service would escape force mode.

type Rule = chrome.declarativeNetRequest.Rule;
const { RuleActionType, ResourceType } = {
  RuleActionType: { BLOCK: 'block', REDIRECT: 'redirect', ALLOW: 'allow' },
  ResourceType: {
    MAIN_FRAME: 'main_frame',
    SUB_FRAME: 'sub_frame',
    XHR: 'xmlhttprequest',
    WEBSOCKET: 'websocket',
  },
} as const;

export function compileRules(config: EndpointConfig, serverUrl: string | undefined): Rule[] {
  const rules: Rule[] = [];
  let id = 1;
  const enforcement = config.policy.enforcement;
  const { block, except, exceptNot } = blockedHosts(config);
  if (enforcement !== 'log' && block.length > 0) {
    if (except.length > 0)
      rules.push({
        id: id++,
        priority: 30,
        action: { type: RuleActionType.ALLOW as chrome.declarativeNetRequest.RuleActionType },
        condition: {
          requestDomains: except,
          ...(exceptNot.length > 0 ? { excludedRequestDomains: exceptNot } : {}),
        },
      });
    for (const host of block) {
      rules.push({
        id: id++,
        priority: 20,
        action: {
          type: RuleActionType.REDIRECT as chrome.declarativeNetRequest.RuleActionType,
          redirect: { extensionPath: `/blocked.html#${encodeURIComponent(host)}` },
        },
        condition: {
          requestDomains: [host],
          resourceTypes: [ResourceType.MAIN_FRAME as chrome.declarativeNetRequest.ResourceType],
        },
      });
    }
    if (enforcement === 'block')
      rules.push({
        id: id++,
        priority: 20,
        action: { type: RuleActionType.BLOCK as chrome.declarativeNetRequest.RuleActionType },
        condition: {
          requestDomains: block,
          // The pages of an allowed service load what they need (ChatGPT's files on oaiusercontent.com,
          // a catalog domain that allowlist mode blocks): only other pages are kept from a blocked API.
          ...(except.length > 0 ? { excludedInitiatorDomains: except } : {}),
          resourceTypes: [
            ResourceType.SUB_FRAME,
            ResourceType.XHR,
            ResourceType.WEBSOCKET,
          ] as chrome.declarativeNetRequest.ResourceType[],
        },
      });
  }
  const force = config.forceMode?.enabled && serverUrl ? forceModeHosts(config) : undefined;
  if (force && serverUrl) {
    const chat = new URL('/chat', serverUrl).href;
    const toChat = (condition: chrome.declarativeNetRequest.RuleCondition) =>
      rules.push({
        id: id++,
        priority: 40,
        action: {
          type: RuleActionType.REDIRECT as chrome.declarativeNetRequest.RuleActionType,
          redirect: { url: chat },
        },
        condition: {
          ...condition,
          resourceTypes: [ResourceType.MAIN_FRAME as chrome.declarativeNetRequest.ResourceType],
        },
      });
    // requestDomains takes subdomains along: a catalog chat host is matched by its own URL prefix instead,
    // so the vendor's other hosts (docs, help, file CDNs) stay reachable.
    for (const host of force.exact) toChat({ regexFilter: exactHostRegex(host) });
    if (force.hosts.length > 0)
      toChat({
        requestDomains: force.hosts,
        ...(force.exclude.length > 0 ? { excludedRequestDomains: force.exclude } : {}),
      });
  }
  return rules;
}

/** A page on this host and no other (http or https, any port, any path). */
export function exactHostRegex(host: string): string {
  return `^https?://${host.replace(/\./g, '\\.')}(?::[0-9]+)?/`;
}

export async function applyRules(config: EndpointConfig, serverUrl: string | undefined): Promise<number> {
  const rules = compileRules(config, serverUrl);
  const existing = await chrome.declarativeNetRequest.getDynamicRules();
  await chrome.declarativeNetRequest.updateDynamicRules({
    removeRuleIds: existing.map((r) => r.id),
    addRules: rules,
  });
  return rules.length;
}

/** "Continue" on a warn block page: this host is allowed until the browser closes. */
export async function allowForSession(host: string): Promise<void> {
  const existing = await chrome.declarativeNetRequest.getSessionRules();
  const id = existing.reduce((m, r) => Math.max(m, r.id), 0) + 1;
  await chrome.declarativeNetRequest.updateSessionRules({
    addRules: [
      {
        id,
        priority: 100,
        action: { type: 'allow' as chrome.declarativeNetRequest.RuleActionType },
        condition: { requestDomains: [host] },
      },
    ],
  });
}
