import {
  type BodyFormat,
  type PromptTexts,
  promptTexts,
  requestFields,
  type TextField,
} from '../protection/index.js';

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
  /**
   * The injection check reads the operation's user text and carried-in texts (tool outputs, documents):
   * false where no model acts on the text (token counts, embeddings, moderation, rerank), which are
   * inspected and tokenized all the same.
   */
  injection: boolean;
}

// The inspected operations, by the end of the path as each provider's SDK sends it (the base path before
// it, `/v1`, `/openai/v1`, `/v1beta`, may differ). Every other path is not inspected (docs/netproxy.md:
// forwarded or refused by the organization's `uninspected` setting).
const GEMINI =
  /\/(?:models|tunedmodels)\/[^/]+:(generatecontent|streamgeneratecontent|counttokens|embedcontent|batchembedcontents|batchgeneratecontent|asyncbatchembedcontent)$/;
const MISTRAL_CONVERSATION = /\/v1\/conversations(?:\/[^/]+(?:\/restart)?)?$/;
// OpenAI conversations: create, update (metadata) and add items.
const OPENAI_CONVERSATION = /\/v1\/conversations(?:\/[^/]+(?:\/items)?)?$/;

const route = (op: Operation, injection = true, streamByPath = false): Route => ({
  op,
  streamByPath,
  injection,
});

/**
 * The inspected operation a POST to `path` is, or null. Matched without regard to case: an upstream that
 * reads paths so (or a front before it that folds them) would take `/v1/Chat/Completions` for the chat,
 * and relayed as an unknown path it went up with its personal data in clear (audit finding F2). Inspected
 * instead; its path still goes up as written.
 */
export function routeOf(provider: NetProvider, method: string, written: string): Route | null {
  if (method !== 'POST') return null;
  const path = written.toLowerCase();
  switch (provider) {
    case 'openai':
    case 'mistral':
    case 'groq':
      if (path.endsWith('/chat/completions')) return route('openai-chat');
      if (path.endsWith('/embeddings')) return route('embeddings', false);
      if (path.endsWith('/responses')) return route('openai-responses');
      if (provider === 'openai') {
        if (path.endsWith('/responses/input_tokens')) return route('openai-input-tokens', false);
        if (OPENAI_CONVERSATION.test(path)) return route('openai-conversations');
      }
      if (path.endsWith('/moderations')) return route('moderations', false);
      if (provider === 'mistral') {
        if (path.endsWith('/fim/completions')) return route('mistral-fim');
        if (path.endsWith('/agents/completions')) return route('openai-chat');
        if (MISTRAL_CONVERSATION.test(path)) return route('mistral-conversations');
        return null;
      }
      return path.endsWith('/v1/completions') ? route('openai-completions') : null;
    case 'anthropic':
      if (path.endsWith('/v1/messages')) return route('anthropic-messages');
      if (path.endsWith('/v1/messages/count_tokens')) return route('anthropic-count', false);
      return path.endsWith('/v1/messages/batches') ? route('anthropic-batches') : null;
    case 'google': {
      const m = GEMINI.exec(path);
      if (!m) return null;
      switch (m[1]) {
        case 'counttokens':
          return route('gemini-count', false);
        case 'embedcontent':
        case 'batchembedcontents':
          return route('gemini-embed', false);
        case 'batchgeneratecontent':
          return route('gemini-batch');
        case 'asyncbatchembedcontent':
          return route('gemini-batch', false);
        default:
          return route('gemini-generate', true, m[1] === 'streamgeneratecontent');
      }
    }
    case 'cohere':
      if (path.endsWith('/v2/chat')) return route('cohere-chat');
      if (path.endsWith('/v1/chat')) return route('cohere-v1-chat');
      if (path.endsWith('/v1/embed') || path.endsWith('/v2/embed')) return route('cohere-embed', false);
      return path.endsWith('/v1/rerank') || path.endsWith('/v2/rerank')
        ? route('cohere-rerank', false)
        : null;
  }
}

/** Operations that are no model call of their own: not counted as usage (a batch is billed as it runs). */
export const NOT_USAGE: ReadonlySet<Operation> = new Set([
  'anthropic-count',
  'gemini-count',
  'anthropic-batches',
  'moderations',
  'openai-input-tokens',
  'openai-conversations',
  'gemini-batch',
]);

export interface RequestTexts {
  fields: TextField[];
  /** The body's text with only the changed strings and keys rewritten, commit included (Walked.rewrite). */
  rewrite(source: string): string;
  /** What the injection check reads: the user's last words, the system prompt, carried-in texts. */
  prompt: PromptTexts;
  model: string;
  stream: boolean;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A Gemini batch read as its rule reads it: objects down to the inline requests, each request a
 * generateContent or embedContent body; both spellings of a name at once would be two readings.
 */
function geminiBatchShape(body: Json): string | null {
  const batch = body['batch'];
  if (batch === undefined) return null;
  if (!isObj(batch)) return "'batch' must be an object";
  if (batch['inputConfig'] !== undefined && batch['input_config'] !== undefined)
    return "'batch' must not hold both 'inputConfig' and 'input_config'";
  const input = batch['inputConfig'] ?? batch['input_config'];
  if (input === undefined) return null;
  if (!isObj(input)) return "'batch.inputConfig' must be an object";
  const requests = input['requests'];
  if (requests === undefined) return null;
  if (!isObj(requests)) return "'batch.inputConfig.requests' must be an object";
  const list = requests['requests'];
  if (list === undefined) return null;
  if (!Array.isArray(list)) return "'batch.inputConfig.requests.requests' must be an array";
  for (const [i, r] of list.entries()) {
    const request = isObj(r) ? r['request'] : undefined;
    if (!isObj(request)) return `'batch.inputConfig.requests.requests[${i}].request' must be an object`;
    const why = unreadableShape('gemini-generate', request) ?? unreadableShape('gemini-embed', request);
    if (why) return why.replace(/'([^']*)'/, `'batch.inputConfig.requests.requests[${i}].request.$1'`);
  }
  return null;
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
  const objects = (key: string) => {
    for (const [i, m] of arr(body[key]).entries()) if (!isObj(m)) return `'${key}[${i}]' must be an object`;
    return null;
  };
  // Token ids (numbers, or arrays of them) in place of text: the provider decodes them to a text the proxy
  // never reads, so they would go up uninspected. Refused, naming the field; the caller sends the text.
  const textOrTexts = (key: string) => {
    const why = stringOrList(key);
    if (why || !Array.isArray(body[key])) return why;
    for (const [i, v] of (body[key] as unknown[]).entries()) {
      if (typeof v === 'string') continue;
      const ids = typeof v === 'number' || (Array.isArray(v) && v.some((n) => typeof n === 'number'));
      return ids
        ? `'${key}' holds token ids (numbers) instead of text, which the proxy cannot read (the provider decodes them to a text never inspected); send the text itself`
        : `'${key}[${i}]' must be a string`;
    }
    return null;
  };
  const stringOrAbsent = (key: string) =>
    body[key] === undefined || typeof body[key] === 'string' ? null : `'${key}' must be a string`;
  // Requests nested in a batch: each is read as a body of its own format.
  const nested = (key: string, inner: string, innerOp: Operation) => {
    for (const [i, r] of arr(body[key]).entries()) {
      const v = isObj(r) ? r[inner] : undefined;
      if (!isObj(v)) return `'${key}[${i}].${inner}' must be an object`;
      const why = unreadableShape(innerOp, v);
      if (why) return why.replace(/'([^']*)'/, `'${key}[${i}].${inner}.$1'`);
    }
    return null;
  };
  switch (op) {
    case 'openai-completions':
    case 'mistral-fim':
      return textOrTexts('prompt') ?? stringOrAbsent('suffix');
    case 'moderations':
      return stringOrList('input');
    case 'anthropic-batches':
      return listOrAbsent('requests') ?? nested('requests', 'params', 'anthropic-messages');
    case 'gemini-count':
      return (
        unreadableShape('gemini-generate', body) ??
        (body['generateContentRequest'] === undefined
          ? null
          : isObj(body['generateContentRequest'])
            ? unreadableShape('gemini-generate', body['generateContentRequest'])
            : "'generateContentRequest' must be an object")
      );
    case 'gemini-embed':
      return (
        geminiContent(body['content'], 'content') ??
        listOrAbsent('requests') ??
        arr(body['requests']).reduce<string | null>(
          (found, r, i) =>
            found ??
            (isObj(r)
              ? geminiContent(r['content'], `requests[${i}].content`)
              : `'requests[${i}]' must be an object`),
          null,
        )
      );
    case 'mistral-conversations':
      return stringOrList('inputs') ?? (Array.isArray(body['inputs']) ? contents('inputs') : null);
    case 'cohere-v1-chat':
      return (
        stringOrAbsent('message') ??
        stringOrAbsent('preamble') ??
        listOrAbsent('chat_history') ??
        objects('chat_history')
      );
    case 'cohere-embed':
      return listOrAbsent('texts') ?? listOrAbsent('inputs') ?? objects('inputs');
    case 'cohere-rerank':
      return stringOrAbsent('query') ?? listOrAbsent('documents');
    case 'openai-chat':
    case 'cohere-chat':
    case 'anthropic-messages':
    case 'anthropic-count':
      return (
        listOrAbsent('messages') ??
        contents('messages') ??
        (op === 'anthropic-messages' || op === 'anthropic-count'
          ? (stringOrList('system') ?? toolResults())
          : null)
      );
    case 'openai-responses':
    case 'openai-input-tokens':
      return stringOrList('input');
    case 'openai-conversations':
      return listOrAbsent('items') ?? objects('items');
    case 'gemini-batch':
      return geminiBatchShape(body);
    case 'embeddings':
      return textOrTexts('input');
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
    prompt: promptTexts(op, body),
    model: str(body['model']),
    stream: streamByPath || body['stream'] === true,
  };
}
