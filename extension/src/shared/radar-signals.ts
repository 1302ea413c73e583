// Signals of an AI service in traffic the extension may only observe (webRequest, read-only): a streamed
// response, headers that LLM APIs and gateways send, and a request body shaped like a chat call. Pure, so
// the service worker and the tests share it.

const AI_HEADER =
  /^(openai-|anthropic-|x-ratelimit-(limit|remaining|reset)-tokens|x-groq-|x-mistral-|cf-aig-|x-litellm-|helicone-|x-portkey-|llm-)/i;

export function headerSignals(headers: Array<{ name: string; value?: string }>): string[] {
  const out: string[] = [];
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  if (/text\/event-stream|application\/x-ndjson/i.test(type)) out.push('streaming_response');
  if (headers.some((h) => AI_HEADER.test(h.name))) out.push('ai_headers');
  return out;
}

/** A JSON body with a list of role/content messages, or a prompt with a model, reads as a chat call. */
export function isChatBody(text: string): boolean {
  if (text.length > 2_000_000) return false;
  if (/"messages"\s*:\s*\[\s*\{[^}]*"role"\s*:/.test(text)) return true;
  if (/"(prompt|input|contents)"\s*:/.test(text) && /"model"\s*:/.test(text)) return true;
  return false;
}

/** The registrable part of a host name (approximate eTLD+1: two labels, three under a short 2nd level). */
export function siteOf(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return host; // an IP address
  if (labels.length <= 2) return labels.join('.');
  const second = labels[labels.length - 2]!;
  const take = second.length <= 3 && ['co', 'com', 'net', 'org', 'gov', 'ac', 'edu'].includes(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** A site is reported when two different signals were seen on it. */
export const MIN_SIGNALS = 2;
