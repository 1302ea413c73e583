import { type BodyFormat, requestFields, type TextField } from '../protection/index.js';

/** The providers of the network proxy (SPEC: openai, anthropic, google, mistral, groq, cohere). */
export const NETPROXY_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'groq', 'cohere'] as const;
export type NetProvider = (typeof NETPROXY_PROVIDERS)[number];

export function isNetProvider(v: string): v is NetProvider {
  return (NETPROXY_PROVIDERS as readonly string[]).includes(v);
}

/** The operations whose bodies the proxy reads; every other path is forwarded as it is. */
export type Operation = BodyFormat;

export interface Route {
  op: Operation;
  /** Gemini says "stream" in the path; the others in the body (decided after parsing). */
  streamByPath: boolean;
}

const GEMINI = /\/models\/[^/]+:(generateContent|streamGenerateContent)$/;

export function routeOf(provider: NetProvider, method: string, path: string): Route | null {
  if (method !== 'POST') return null;
  switch (provider) {
    case 'openai':
    case 'mistral':
    case 'groq':
      if (path.endsWith('/chat/completions')) return { op: 'openai-chat', streamByPath: false };
      if (path.endsWith('/embeddings')) return { op: 'embeddings', streamByPath: false };
      if (provider === 'openai' && path.endsWith('/responses'))
        return { op: 'openai-responses', streamByPath: false };
      return null;
    case 'anthropic':
      return path.endsWith('/v1/messages') ? { op: 'anthropic-messages', streamByPath: false } : null;
    case 'google': {
      const m = GEMINI.exec(path);
      if (!m) return null;
      return { op: 'gemini-generate', streamByPath: m[1] === 'streamGenerateContent' };
    }
    case 'cohere':
      return path.endsWith('/v2/chat') ? { op: 'cohere-chat', streamByPath: false } : null;
  }
}

export interface RequestTexts {
  fields: TextField[];
  /** The body's text with only the changed strings and keys rewritten, commit included (Walked.rewrite). */
  rewrite(source: string): string;
  /** What the user wrote last: the injection check reads it. */
  userText: string;
  model: string;
  stream: boolean;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The texts of the text parts (`{type, text}` with a type of `types`) of an array. */
function partTexts(v: unknown, types: Set<string>): string[] {
  const texts: string[] = [];
  for (const p of arr(v))
    if (isObj(p) && types.has(str(p['type'])) && typeof p['text'] === 'string') texts.push(p['text']);
  return texts;
}

const TEXT = new Set(['text']);
const RESPONSES_TEXT = new Set(['input_text', 'output_text', 'text']);

/**
 * What the user wrote last, which the injection check reads: the last user turn's text (earlier turns
 * were checked when they were sent; tool results and the model's turns are not the user's words).
 */
function lastUserText(op: Operation, body: Json): string {
  let userText = '';
  switch (op) {
    case 'openai-chat':
    case 'cohere-chat': {
      const messages = arr(body['messages']);
      for (let i = messages.length - 1; i >= 0; i--) {
        const m = messages[i];
        if (!isObj(m) || m['role'] !== 'user') continue;
        const c = m['content'];
        return typeof c === 'string' ? c : partTexts(c, TEXT).filter(Boolean).join('\n');
      }
      return '';
    }
    case 'embeddings':
      return '';
    case 'openai-responses':
      if (typeof body['input'] === 'string') return body['input'];
      for (const item of arr(body['input'])) {
        if (!isObj(item) || item['type'] === 'function_call') continue;
        if (item['type'] === 'function_call_output' && typeof item['output'] === 'string') continue;
        if (!('content' in item) || item['role'] !== 'user') continue;
        const c = item['content'];
        userText = typeof c === 'string' ? c : partTexts(c, RESPONSES_TEXT).join('\n');
      }
      return userText;
    case 'anthropic-messages':
      for (const m of arr(body['messages'])) {
        if (!isObj(m) || m['role'] !== 'user') continue;
        const c = m['content'];
        // A turn of tool results alone leaves the last words the user wrote in place.
        const texts = typeof c === 'string' ? [c] : partTexts(c, TEXT);
        if (texts.length > 0) userText = texts.join('\n');
      }
      return userText;
    case 'gemini-generate':
      for (const c of arr(body['contents'])) {
        if (!isObj(c) || (c['role'] !== 'user' && c['role'] !== undefined)) continue;
        const texts: string[] = [];
        for (const p of arr(c['parts']))
          if (isObj(p) && p['thought'] !== true && typeof p['text'] === 'string') texts.push(p['text']);
        const text = texts.join('\n');
        if (text) userText = text;
      }
      return userText;
  }
}

/**
 * Where a request holds text in a container of another type than its format's (`messages` as a string, a
 * message's `content` as an object): the fields below skip what they cannot read, so such a body would go
 * up uninspected. The provider refuses these shapes anyway; the proxy refuses them first (fail closed).
 */
export function unreadableShape(op: Operation, body: Json): string | null {
  const listOrAbsent = (key: string) =>
    body[key] === undefined || Array.isArray(body[key]) ? null : `'${key}' must be an array`;
  const contents = (key: string) => {
    for (const [i, m] of arr(body[key]).entries()) {
      if (!isObj(m)) return `'${key}[${i}]' must be an object`;
      const c = m['content'];
      if (c !== undefined && c !== null && typeof c !== 'string' && !Array.isArray(c))
        return `'${key}[${i}].content' must be a string or an array of parts`;
    }
    return null;
  };
  const stringOrList = (key: string) =>
    body[key] === undefined || typeof body[key] === 'string' || Array.isArray(body[key])
      ? null
      : `'${key}' must be a string or an array`;
  // Anthropic tool results: their content is read as text or text parts, like a message's.
  const toolResults = () => {
    for (const [i, m] of arr(body['messages']).entries())
      for (const [j, b] of arr(isObj(m) ? m['content'] : undefined).entries()) {
        if (!isObj(b) || b['type'] !== 'tool_result') continue;
        const c = b['content'];
        if (c !== undefined && c !== null && typeof c !== 'string' && !Array.isArray(c))
          return `'messages[${i}].content[${j}].content' must be a string or an array of parts`;
      }
    return null;
  };
  // Gemini: every Content (each of `contents`, and `systemInstruction`) is an object whose `parts` is an array.
  const geminiContent = (c: unknown, name: string) => {
    if (c === undefined) return null;
    if (!isObj(c)) return `'${name}' must be an object with 'parts'`;
    return c['parts'] === undefined || Array.isArray(c['parts']) ? null : `'${name}.parts' must be an array`;
  };
  switch (op) {
    case 'openai-chat':
    case 'cohere-chat':
    case 'anthropic-messages':
      return (
        listOrAbsent('messages') ??
        contents('messages') ??
        (op === 'anthropic-messages' ? (stringOrList('system') ?? toolResults()) : null)
      );
    case 'openai-responses':
    case 'embeddings':
      return stringOrList('input');
    case 'gemini-generate':
      return (
        listOrAbsent('contents') ??
        arr(body['contents']).reduce<string | null>(
          (found, c, i) => found ?? geminiContent(c, `contents[${i}]`),
          null,
        ) ??
        geminiContent(body['systemInstruction'], 'systemInstruction')
      );
  }
}

/**
 * Every string of a request in the provider's native format that may carry personal data: the whole body
 * is walked once, and every string is a field except the structural and opaque values of the format's
 * rule (protection's rules.ts: model, roles, ids, tool names, media bytes and URLs, signed or encrypted
 * reasoning). Fields the proxy does not know (a new SDK's, a provider's extras) are tokenized like text.
 */
export function requestTexts(op: Operation, body: Json, streamByPath: boolean): RequestTexts {
  const walked = requestFields(op, body);
  return {
    fields: walked.fields,
    rewrite: walked.rewrite,
    userText: lastUserText(op, body),
    model: str(body['model']),
    stream: streamByPath || body['stream'] === true,
  };
}
