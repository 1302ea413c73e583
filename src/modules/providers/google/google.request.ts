import { asRecord, contentText, parseArguments, parseDataUrl } from '../shared/chunks.js';
import type { ChatMessage, ChatRequest, ContentPart } from '../types.js';

type Part = Record<string, unknown>;
interface GeminiContent {
  role: 'user' | 'model';
  parts: Part[];
}

/** OpenAI chat request → Gemini generateContent body (the model goes in the URL, not the body). */
export function toGeminiBody(req: ChatRequest): Record<string, unknown> {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  // Gemini's functionResponse needs the function name; OpenAI tool messages only carry the call id.
  const toolNames = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    // Parallel tool results must sit together in one turn, right after the model turn that asked for them.
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') {
      const text = contentText(m.content);
      if (text) system.push(text);
    } else if (m.role === 'user') {
      push('user', userParts(m.content));
    } else if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) toolNames.set(call.id, call.function.name);
      push('model', modelParts(m));
    } else if (m.role === 'tool') {
      const name = toolNames.get(m.tool_call_id ?? '') ?? m.name ?? 'tool';
      push('user', [{ functionResponse: { name, response: toolResponse(contentText(m.content)) } }]);
    }
  }

  const body: Record<string, unknown> = { contents };
  if (system.length > 0) body['systemInstruction'] = { parts: [{ text: system.join('\n\n') }] };
  const generationConfig = toGenerationConfig(req);
  if (Object.keys(generationConfig).length > 0) body['generationConfig'] = generationConfig;
  if (Array.isArray(req.tools) && req.tools.length > 0) {
    body['tools'] = [{ functionDeclarations: req.tools.map(toDeclaration) }];
  }
  const toolConfig = toToolConfig(req.tool_choice);
  if (toolConfig) body['toolConfig'] = toolConfig;
  return body;
}

function userParts(content: ChatMessage['content']): Part[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) return [];
  const parts: Part[] = [];
  for (const p of content) {
    const part = toPart(p);
    if (part) parts.push(part);
  }
  return parts;
}

function toPart(part: ContentPart): Part | undefined {
  if (part.type === 'text' && typeof part['text'] === 'string') return { text: part['text'] };
  if (part.type === 'image_url') {
    const url = asRecord(part['image_url'])?.['url'];
    if (typeof url !== 'string') return undefined;
    const data = parseDataUrl(url);
    if (data) return { inlineData: { mimeType: data.mediaType, data: data.data } };
    return { fileData: { mimeType: guessImageType(url), fileUri: url } };
  }
  return undefined;
}

function guessImageType(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (ext === 'png') return 'image/png';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'gif') return 'image/gif';
  return 'image/jpeg';
}

function modelParts(m: ChatMessage): Part[] {
  const parts: Part[] = [];
  const text = contentText(m.content);
  if (text) parts.push({ text });
  for (const call of m.tool_calls ?? []) {
    const part: Part = {
      functionCall: { name: call.function.name, args: parseArguments(call.function.arguments) },
    };
    // Gemini 2.5+ rejects a replayed function call whose signature was dropped or changed.
    if (call.thought_signature) part['thoughtSignature'] = call.thought_signature;
    parts.push(part);
  }
  return parts;
}

function toolResponse(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    const obj = asRecord(parsed);
    if (obj) return obj;
    return { result: parsed };
  } catch {
    return { result: text };
  }
}

// Gemini's schema dialect is an OpenAPI subset and rejects these JSON Schema keywords.
const UNSUPPORTED_SCHEMA_KEYS = new Set([
  '$schema',
  'additionalProperties',
  'strict',
  '$id',
  '$defs',
  'definitions',
]);

function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  const obj = asRecord(schema);
  if (!obj) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(k)) continue;
    // Property names are data, not keywords: keep them all.
    out[k] = k === 'properties' ? mapValues(v, cleanSchema) : cleanSchema(v);
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  const obj = asRecord(value);
  if (!obj) return value;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]));
}

function toDeclaration(tool: unknown): Record<string, unknown> {
  const fn = asRecord(asRecord(tool)?.['function']) ?? {};
  const out: Record<string, unknown> = { name: fn['name'] };
  if (typeof fn['description'] === 'string') out['description'] = fn['description'];
  if (fn['parameters'] !== undefined) out['parameters'] = cleanSchema(fn['parameters']);
  return out;
}

function toToolConfig(choice: unknown): Record<string, unknown> | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = asRecord(asRecord(choice)?.['function'])?.['name'];
  if (typeof name === 'string')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
  return undefined;
}

function toGenerationConfig(req: ChatRequest): Record<string, unknown> {
  const cfg: Record<string, unknown> = {};
  const num = (k: string) => (typeof req[k] === 'number' ? (req[k] as number) : undefined);
  if (req.temperature !== undefined) cfg['temperature'] = req.temperature;
  const topP = num('top_p');
  if (topP !== undefined) cfg['topP'] = topP;
  const max = req.max_tokens ?? num('max_completion_tokens');
  if (max !== undefined) cfg['maxOutputTokens'] = max;
  const n = num('n');
  if (n !== undefined) cfg['candidateCount'] = n;
  const seed = num('seed');
  if (seed !== undefined) cfg['seed'] = seed;
  const presence = num('presence_penalty');
  if (presence !== undefined) cfg['presencePenalty'] = presence;
  const frequency = num('frequency_penalty');
  if (frequency !== undefined) cfg['frequencyPenalty'] = frequency;
  const stop = req['stop'];
  if (typeof stop === 'string') cfg['stopSequences'] = [stop];
  else if (Array.isArray(stop)) cfg['stopSequences'] = stop;
  const format = asRecord(req['response_format']);
  if (format?.['type'] === 'json_object') cfg['responseMimeType'] = 'application/json';
  if (format?.['type'] === 'json_schema') {
    cfg['responseMimeType'] = 'application/json';
    const schema = asRecord(format['json_schema'])?.['schema'];
    if (schema !== undefined) cfg['responseSchema'] = cleanSchema(schema);
  }
  return cfg;
}
