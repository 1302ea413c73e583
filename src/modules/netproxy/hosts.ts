import type { NetProvider } from './formats.js';

/** The providers' public API host names that transparent mode answers for, and the provider of each. */
export const HOST_PROVIDERS: Readonly<Record<string, NetProvider>> = {
  'api.openai.com': 'openai',
  'api.anthropic.com': 'anthropic',
  'generativelanguage.googleapis.com': 'google',
  'api.mistral.ai': 'mistral',
  'api.groq.com': 'groq',
  'api.cohere.com': 'cohere',
};

export const INTERCEPTED_HOSTS: readonly string[] = Object.keys(HOST_PROVIDERS);

/** The provider behind a host name (any case, trailing dot allowed), or undefined for every other name. */
export function providerOfHost(host: string | undefined | false): NetProvider | undefined {
  if (!host) return undefined;
  const name = host.toLowerCase().replace(/\.$/, '');
  return Object.hasOwn(HOST_PROVIDERS, name) ? HOST_PROVIDERS[name] : undefined;
}
