// The AI chat sites the extension integrates with, and how each one sends a prompt. The request formats
// are the sites' own (research notes turn2-anchors §b.3); when a site changes them the DOM bar and the
// DOM rehydration keep working, and the request hook fails closed for the paths it still recognises.

export type Transport = 'fetch' | 'xhr' | 'websocket';

export interface ChatSite {
  id: string;
  name: string;
  /** host names; a host matches itself and its subdomains */
  hosts: string[];
  /** request paths that carry the user's prompt */
  sendPaths: RegExp[];
  transport: Transport;
}

export const CHAT_SITES: readonly ChatSite[] = [
  {
    id: 'chatgpt',
    name: 'ChatGPT',
    hosts: ['chatgpt.com', 'chat.openai.com'],
    sendPaths: [/^\/backend-(?:api|anon)\/(?:f\/)?conversation$/],
    transport: 'fetch',
  },
  {
    id: 'claude',
    name: 'Claude',
    hosts: ['claude.ai'],
    sendPaths: [/^\/api\/organizations\/[^/]+\/chat_conversations\/[^/]+\/(?:completion|retry_completion)$/],
    transport: 'fetch',
  },
  {
    id: 'gemini',
    name: 'Gemini',
    hosts: ['gemini.google.com'],
    sendPaths: [/\/assistant\.lamda\.BardFrontendService\/StreamGenerate$/],
    transport: 'xhr',
  },
  {
    id: 'copilot',
    name: 'Copilot',
    hosts: ['copilot.microsoft.com'],
    sendPaths: [/^\/c\/api\/chat$/],
    transport: 'websocket',
  },
  {
    id: 'mistral',
    name: 'Mistral Le Chat',
    hosts: ['chat.mistral.ai'],
    sendPaths: [/^\/api\/chat$/, /^\/api\/trpc\/message\.newChat/],
    transport: 'fetch',
  },
  {
    id: 'perplexity',
    name: 'Perplexity',
    hosts: ['perplexity.ai', 'www.perplexity.ai'],
    sendPaths: [/^\/rest\/sse\/perplexity_ask$/],
    transport: 'fetch',
  },
];

export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = pattern.toLowerCase().replace(/^\*\./, '');
  return h === p || h.endsWith(`.${p}`);
}

export function siteForHost(host: string): ChatSite | undefined {
  return CHAT_SITES.find((s) => s.hosts.some((h) => hostMatches(host, h)));
}

/**
 * The built-in site whose integration runs on this exact host (the manifest injects on these hosts only);
 * a subdomain the config marks as AI, e.g. sora.chatgpt.com, has other requests and gets the generic one.
 */
export function builtinSiteAt(host: string): ChatSite | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  return CHAT_SITES.find((s) => s.hosts.includes(h));
}

export function isSendRequest(site: ChatSite, url: URL): boolean {
  return site.sendPaths.some((re) => re.test(url.pathname));
}

/** Every host of the built-in sites, for manifest match patterns and force-mode redirects. */
export function chatHosts(): string[] {
  return CHAT_SITES.flatMap((s) => s.hosts);
}
