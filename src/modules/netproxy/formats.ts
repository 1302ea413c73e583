import type { ChatRequest } from '../providers/index.js';
import {
  collectLeaves,
  jsonTextFields,
  PropertyField,
  type TextField,
  textFieldsOf,
} from '../protection/index.js';

/** The providers of the network proxy (SPEC: openai, anthropic, google, mistral, groq, cohere). */
export const NETPROXY_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'groq', 'cohere'] as const;
export type NetProvider = (typeof NETPROXY_PROVIDERS)[number];

export function isNetProvider(v: string): v is NetProvider {
  return (NETPROXY_PROVIDERS as readonly string[]).includes(v);
}

/** The operations whose bodies the proxy reads; every other path is forwarded as it is. */
export type Operation =
  | 'openai-chat'
  | 'openai-responses'
  | 'embeddings'
  | 'anthropic-messages'
  | 'gemini-generate'
  | 'cohere-chat';

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
  /** Writes JSON-text properties (tool-call arguments) back after their values were set. */
  commit(): void;
  /** What the user wrote last: the injection check reads it. */
  userText: string;
  model: string;
  stream: boolean;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A string property as a field; text parts ({type, text}) of an array as fields of their own. */
function textOrParts(
  holder: Json,
  key: string,
  name: string,
  out: TextField[],
  partTypes: Set<string>,
): string {
  const v = holder[key];
  if (typeof v === 'string') {
    out.push(new PropertyField(name, v, holder, key));
    return v;
  }
  const texts: string[] = [];
  arr(v).forEach((p, j) => {
    if (isObj(p) && partTypes.has(str(p['type'])) && typeof p['text'] === 'string') {
      out.push(new PropertyField(`${name}[${j}].text`, p['text'], p, 'text'));
      texts.push(p['text']);
    }
  });
  return texts.join('\n');
}

const TEXT = new Set(['text']);

const RESPONSES_TEXT = new Set(['input_text', 'output_text', 'text']);

/**
 * An Anthropic document block: a plain-text source (`source.data`) or a content source (text parts), and
 * the `title` and `context` the caller wrote beside it. Left out, the text of a pasted document went up in
 * clear. PDF and image sources (base64 data) are files, left as they are like the other file parts.
 */
function documentTexts(block: Record<string, unknown>, at: string, fields: TextField[]): void {
  for (const key of ['title', 'context'])
    if (typeof block[key] === 'string')
      fields.push(new PropertyField(`${at}.${key}`, block[key] as string, block, key));
  const source = block['source'];
  if (!isObj(source)) return;
  if (source['type'] === 'text' && typeof source['data'] === 'string')
    fields.push(new PropertyField(`${at}.source.data`, source['data'], source, 'data'));
  else if (source['type'] === 'content') textOrParts(source, 'content', `${at}.source.content`, fields, TEXT);
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
 * Every text field of a request in the provider's native format that may carry personal data: what users
 * and tools wrote, the model's earlier turns, tool-call arguments (the values inside the JSON) and tool
 * results. Images, files, audio, thinking blocks and signatures are left as they are (a changed signed
 * block makes the provider refuse the next turn), and so are names, ids and schemas.
 */
export function requestTexts(op: Operation, body: Json, streamByPath: boolean): RequestTexts {
  const fields: TextField[] = [];
  const commits: Array<() => void> = [];
  let userText = '';
  const model = str(body['model']);
  const bodyStream = body['stream'] === true;
  switch (op) {
    case 'openai-chat':
    case 'cohere-chat': {
      // Cohere v2's grounding documents (strings, or objects whose `data` holds the fields): every string
      // in them, as for tool arguments; left out, a RAG passage went up in clear.
      if (op === 'cohere-chat' && body['documents'] !== undefined)
        collectLeaves(body['documents'], 'documents', fields, (v) => {
          body['documents'] = v as Json[keyof Json];
        });
      // Mistral, Groq and Cohere v2 share OpenAI's message shape: content as text or text parts,
      // tool_calls[].function.arguments as JSON text, tool results as content.
      if (!Array.isArray(body['messages'])) break;
      const t = textFieldsOf(body as unknown as ChatRequest);
      fields.push(...t.fields);
      commits.push(() => t.commit());
      userText = t.userText;
      break;
    }
    case 'embeddings': {
      const input = body['input'];
      if (typeof input === 'string') fields.push(new PropertyField('input', input, body, 'input'));
      else
        arr(input).forEach((v, i) => {
          if (typeof v === 'string')
            fields.push(new PropertyField(`input[${i}]`, v, input as unknown[] as never, String(i)));
        });
      break;
    }
    case 'openai-responses': {
      if (typeof body['instructions'] === 'string')
        fields.push(new PropertyField('instructions', body['instructions'], body, 'instructions'));
      if (typeof body['input'] === 'string') {
        fields.push(new PropertyField('input', body['input'], body, 'input'));
        userText = body['input'];
        break;
      }
      arr(body['input']).forEach((item, i) => {
        if (!isObj(item)) return;
        const name = `input[${i}]`;
        if (item['type'] === 'function_call')
          jsonTextFields(item, 'arguments', `${name}.arguments`, fields, commits);
        else if (item['type'] === 'function_call_output' && typeof item['output'] === 'string')
          fields.push(new PropertyField(`${name}.output`, item['output'], item, 'output'));
        else if ('content' in item) {
          const text = textOrParts(item, 'content', `${name}.content`, fields, RESPONSES_TEXT);
          if (item['role'] === 'user') userText = text;
        }
      });
      break;
    }
    case 'anthropic-messages': {
      textOrParts(body, 'system', 'system', fields, TEXT);
      arr(body['messages']).forEach((m, i) => {
        if (!isObj(m)) return;
        const name = `messages[${i}].content`;
        if (typeof m['content'] === 'string') {
          fields.push(new PropertyField(name, m['content'], m, 'content'));
          if (m['role'] === 'user') userText = m['content'];
          return;
        }
        const texts: string[] = [];
        arr(m['content']).forEach((b, j) => {
          if (!isObj(b)) return;
          const at = `${name}[${j}]`;
          if (b['type'] === 'text' && typeof b['text'] === 'string') {
            fields.push(new PropertyField(`${at}.text`, b['text'], b, 'text'));
            texts.push(b['text']);
          } else if (b['type'] === 'tool_use' && isObj(b['input'])) {
            collectLeaves(b['input'], `${at}.input`, fields, () => {});
          } else if (b['type'] === 'tool_result') {
            textOrParts(b, 'content', `${at}.content`, fields, TEXT);
          } else if (b['type'] === 'document') {
            documentTexts(b, at, fields);
          }
        });
        if (m['role'] === 'user' && texts.length > 0) userText = texts.join('\n');
      });
      break;
    }
    case 'gemini-generate': {
      const parts = (content: unknown, name: string): string => {
        const texts: string[] = [];
        arr(isObj(content) ? content['parts'] : undefined).forEach((p, j) => {
          if (!isObj(p) || p['thought'] === true) return;
          const at = `${name}.parts[${j}]`;
          if (typeof p['text'] === 'string') {
            fields.push(new PropertyField(`${at}.text`, p['text'], p, 'text'));
            texts.push(p['text']);
          } else if (isObj(p['functionCall']) && isObj(p['functionCall']['args'])) {
            collectLeaves(p['functionCall']['args'], `${at}.functionCall.args`, fields, () => {});
          } else if (isObj(p['functionResponse']) && isObj(p['functionResponse']['response'])) {
            collectLeaves(
              p['functionResponse']['response'],
              `${at}.functionResponse.response`,
              fields,
              () => {},
            );
          }
        });
        return texts.join('\n');
      };
      parts(body['systemInstruction'], 'systemInstruction');
      arr(body['contents']).forEach((c, i) => {
        const text = parts(c, `contents[${i}]`);
        if (isObj(c) && (c['role'] === 'user' || c['role'] === undefined) && text) userText = text;
      });
      break;
    }
  }
  return {
    fields,
    commit() {
      for (const c of commits) c();
    },
    userText,
    model,
    stream: streamByPath || bodyStream,
  };
}
