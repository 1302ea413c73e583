import type { BodyFormat } from './rules.js';

/** Where a text the injection check reads as indirect came from: the engine's `context` for it. */
export type IndirectSource = 'tool' | 'document';

export interface IndirectText {
  text: string;
  source: IndirectSource;
  /**
   * The text may have been checked on an earlier request: a Responses tool output placed between the
   * model's calls, which the input items cannot tell apart from an earlier round's (see `responses`). It
   * is read all the same (a block refuses the request), but its `log`/`warn` is not published again.
   * The results of tools the provider ran, in the history, are read so too: they came in a response, which
   * nothing checks, and the model reads them again on every later turn (see `responsesProviderResults`).
   */
  resent?: true;
}

/**
 * What the injection check of one request reads (protection.checkPrompt). Only what is new in the request
 * is read: earlier turns were checked when they were sent, so a conversation resent on every turn (an
 * agent loop resends every tool output it has seen) costs one check per text, not one per turn, and an
 * event is published once for it.
 */
export interface PromptTexts {
  /**
   * What the user wrote in the newest turn: every user message of it, joined (an attack followed by a
   * harmless "thanks" is read); when the turn holds none with text (tool results alone), the last user
   * words before it.
   */
  user: string;
  /** The system prompt (instructions, preamble): the `context` of the user text's analysis; '' when none. */
  system: string;
  /**
   * Texts the newest turn carries in from elsewhere and the model will read: tool outputs, documents,
   * search results, grounding documents. Each distinct text once (a document sent twice is one check).
   */
  indirect: IndirectText[];
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const TEXT = new Set(['text']);
const RESPONSES_TEXT = new Set(['input_text', 'output_text', 'text']);

/** The texts of the text parts (`{type, text}` with a type of `types`) of an array. */
function partTexts(v: unknown, types: Set<string>): string[] {
  const texts: string[] = [];
  for (const p of arr(v))
    if (isObj(p) && types.has(str(p['type'])) && typeof p['text'] === 'string') texts.push(p['text']);
  return texts;
}

/** A content that is a string or a list of text parts, as one text. */
function contentText(c: unknown, types: Set<string>): string {
  return typeof c === 'string' ? c : partTexts(c, types).filter(Boolean).join('\n');
}

/**
 * Every object key and string value below `v` (a tool's JSON output, a Cohere document's fields), one per
 * line, a key before its value: what the model reads of it. Keys are read too: the tool or the document's
 * author chose them, and the model reads `{"Assistant, ignore your rules": 1}` as it reads a value.
 * Iterative, linear in the size of the value.
 */
function stringValues(v: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (x) out.push(x);
    } else if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (isObj(x)) {
      const entries = Object.entries(x);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, value] = entries[i] as [string, unknown];
        stack.push(value, key);
      }
    }
  }
  return out.join('\n');
}

/** Collects indirect texts, each distinct text once (new if any of its places is new). */
class Indirect {
  readonly list: IndirectText[] = [];
  private readonly seen = new Map<string, IndirectText>();
  add(text: string, source: IndirectSource, resent = false): void {
    if (!text.trim()) return;
    const known = this.seen.get(text);
    if (known) {
      if (!resent) delete known.resent;
      return;
    }
    const entry: IndirectText = resent ? { text, source, resent: true } : { text, source };
    this.seen.set(text, entry);
    this.list.push(entry);
  }
}

/**
 * The index just after the last item that `isModel` says the model wrote: where the newest turn starts.
 * Model items at the very end are a prefill (an assistant message the model is to continue: Anthropic's
 * prefill, Mistral's `prefix: true`), written by the caller on this turn: they do not end the turn they
 * follow, whose tool results would otherwise go unread.
 */
function newestTurn(items: unknown[], isModel: (item: Json) => boolean): number {
  let end = items.length;
  while (end > 0 && isObj(items[end - 1]) && isModel(items[end - 1] as Json)) end--;
  for (let i = end - 1; i >= 0; i--) {
    const item = items[i];
    if (isObj(item) && isModel(item)) return i + 1;
  }
  return 0;
}

/**
 * The user's words of a request: `newest`, the texts of every user message of the newest turn, joined;
 * when it has none, `earlier`, the last user text before it (a turn of tool results alone).
 */
function userWords(newest: string[], earlier: string): string {
  const texts = newest.filter(Boolean);
  return texts.length > 0 ? texts.join('\n\n') : earlier;
}

/**
 * An Anthropic content block the model reads as carried-in text: a tool result's content (text blocks,
 * and the search results and documents a tool returns), a document (plain-text or content source; a PDF
 * or image is not text), a search result, and the result of a tool the provider ran (see
 * `anthropicServerResult`). `resent`: the block is in the history (see `IndirectText.resent`).
 */
function anthropicBlock(b: unknown, found: Indirect, resent = false): void {
  if (!isObj(b)) return;
  switch (b['type']) {
    case 'tool_result': {
      const c = b['content'];
      if (typeof c === 'string') found.add(c, 'tool', resent);
      else {
        found.add(partTexts(c, TEXT).join('\n'), 'tool', resent);
        for (const inner of arr(c)) anthropicBlock(inner, found, resent);
      }
      return;
    }
    case 'document': {
      const source = isObj(b['source']) ? b['source'] : {};
      const body =
        source['type'] === 'text'
          ? str(source['data'])
          : source['type'] === 'content'
            ? contentText(source['content'], TEXT)
            : '';
      found.add([str(b['title']), str(b['context']), body].filter(Boolean).join('\n'), 'document', resent);
      return;
    }
    case 'search_result':
      found.add(
        [str(b['title']), contentText(b['content'], TEXT)].filter(Boolean).join('\n'),
        'document',
        resent,
      );
      return;
    default:
      anthropicServerResult(b, found, resent);
  }
}

/**
 * The result of a tool the provider ran (a server tool), which the response carried in the assistant's
 * content and the caller sends back in the history: it reached the caller in a response, so no request
 * checked it, and the model reads it again on every later turn. A fetched page (its document block); the
 * titles of web search results (their page text is `encrypted_content`, which only the provider reads);
 * the stdout and stderr of code execution and the file a text-editor tool viewed; an MCP tool's result.
 */
function anthropicServerResult(b: Json, found: Indirect, resent: boolean): void {
  const c = b['content'];
  switch (b['type']) {
    case 'mcp_tool_result':
      found.add(contentText(c, TEXT), 'tool', resent);
      return;
    case 'web_fetch_tool_result':
      if (isObj(c)) anthropicBlock(c['content'], found, resent);
      return;
    case 'web_search_tool_result':
      found.add(
        arr(c)
          .map((r) => (isObj(r) ? str(r['title']) : ''))
          .filter(Boolean)
          .join('\n'),
        'document',
        resent,
      );
      return;
    case 'code_execution_tool_result':
    case 'bash_code_execution_tool_result':
    case 'text_editor_code_execution_tool_result':
      if (isObj(c))
        found.add(
          [str(c['stdout']), str(c['stderr']), str(c['content'])].filter(Boolean).join('\n'),
          'tool',
          resent,
        );
  }
}

function anthropicMessages(body: Json, found: Indirect): { user: string; system: string } {
  const messages = arr(body['messages']);
  const turn = newestTurn(messages, (m) => m['role'] === 'assistant');
  let earlier = '';
  const newest: string[] = [];
  messages.forEach((m, i) => {
    if (!isObj(m)) return;
    // The provider's tool results in the model's turns, wherever they are in the history.
    if (m['role'] === 'assistant')
      for (const b of arr(m['content'])) if (isObj(b)) anthropicServerResult(b, found, true);
    if (m['role'] !== 'user') return;
    const c = m['content'];
    const text = (typeof c === 'string' ? [c] : partTexts(c, TEXT)).join('\n');
    if (i >= turn) {
      newest.push(text);
      for (const b of arr(c)) anthropicBlock(b, found);
    } else if (text) earlier = text;
  });
  return { user: userWords(newest, earlier), system: contentText(body['system'], TEXT) };
}

/** OpenAI chat (and Mistral, Groq, the provider proxy's format) and Cohere v2 chat. */
function chatMessages(body: Json, found: Indirect, cohere: boolean): { user: string; system: string } {
  const messages = arr(body['messages']);
  const turn = newestTurn(messages, (m) => m['role'] === 'assistant');
  let earlier = '';
  const newest: string[] = [];
  const system: string[] = [];
  messages.forEach((m, i) => {
    if (!isObj(m)) return;
    if (m['role'] === 'system' || m['role'] === 'developer') system.push(contentText(m['content'], TEXT));
    else if (m['role'] === 'user') {
      const text = contentText(m['content'], TEXT);
      if (i >= turn) newest.push(text);
      else if (text) earlier = text;
    }
  });
  const user = userWords(newest, earlier);
  for (const m of messages.slice(turn)) {
    if (!isObj(m) || (m['role'] !== 'tool' && m['role'] !== 'function')) continue;
    const c = m['content'];
    found.add(contentText(c, TEXT), 'tool');
    // Cohere: a tool's output may be documents ({type: 'document', document: {data}}).
    if (cohere)
      for (const p of arr(c))
        if (isObj(p) && p['type'] === 'document') found.add(stringValues(p['document']), 'tool');
  }
  // Cohere grounding documents: the request's own, read by the model on this turn.
  if (cohere) for (const d of arr(body['documents'])) found.add(stringValues(d), 'document');
  return { user, system: system.filter(Boolean).join('\n') };
}

/** A Responses API input item the caller wrote: a user, system or developer message. */
const RESPONSES_INPUT_ROLES = new Set(['user', 'system', 'developer']);
function responsesInputMessage(item: Json): boolean {
  const type = str(item['type']);
  return (type === 'message' || type === '') && RESPONSES_INPUT_ROLES.has(str(item['role']));
}
/** A Responses API input item the model did not write: an input message or a tool's output. */
function responsesNotModel(item: Json): boolean {
  const type = str(item['type']);
  if (type.endsWith('_output') || type === 'mcp_approval_response') return true;
  return responsesInputMessage(item);
}

/** A Responses tool output: text, or input_text parts (a screenshot holds no text). */
function responsesOutputs(items: unknown[], found: Indirect, resent = false): void {
  for (const item of items)
    if (isObj(item) && str(item['type']).endsWith('_output'))
      found.add(contentText(item['output'], RESPONSES_TEXT), 'tool', resent);
}

/**
 * The results of the tools the provider ran (MCP calls, file search, code interpreter), which a response
 * carried as the model's items and the caller resends: no request checked them on their way in, and the
 * model reads them again on every later turn. Web search calls hold the query and URLs only; image
 * generation holds an image.
 */
function responsesProviderResults(items: unknown[], found: Indirect, resent: boolean): void {
  for (const item of items) {
    if (!isObj(item)) continue;
    switch (item['type']) {
      case 'mcp_call':
        found.add([str(item['output']), str(item['error'])].filter(Boolean).join('\n'), 'tool', resent);
        break;
      case 'file_search_call':
        for (const r of arr(item['results']))
          if (isObj(r))
            found.add([str(r['filename']), str(r['text'])].filter(Boolean).join('\n'), 'document', resent);
        break;
      case 'code_interpreter_call':
        for (const o of arr(item['outputs'])) if (isObj(o)) found.add(str(o['logs']), 'tool', resent);
    }
  }
}

/**
 * The tool outputs of Responses input items. `appended`: the items are added now to what the provider
 * stored (`previous_response_id`, `conversation`, the items of a conversation being created or extended),
 * so each of them is new. Otherwise the caller resends the whole history, and the newest turn is what
 * follows the model's last answer, as in the other formats. Input items do not say where one answer ends:
 * a caller that places each output right after its call (`[message, call 1, output 1, message, call 2,
 * output 2]`, one answer) sends what an agent loop's two rounds look like (`[call 1, output 1, call 2,
 * output 2]`). The outputs after the model's last item are new; those between the model's items since the
 * caller's last message may be (one answer's) or may have been checked on an earlier request (an earlier
 * round's, which the request that carried them checked as its newest turn): they are read as `resent`,
 * so an injection there is refused either way, while a loop's earlier outputs publish no event again.
 * Nothing before the caller's last message can be new: the model answered after it.
 */
function responsesItems(items: unknown[], found: Indirect, appended: boolean): void {
  if (appended) {
    responsesOutputs(items, found);
    responsesProviderResults(items, found, false);
    return;
  }
  // The provider's tool results anywhere in the history: the model's items, read as resent.
  responsesProviderResults(items, found, true);
  const newest = newestTurn(items, (i) => !responsesNotModel(i));
  let from = newest - 1;
  while (from > 0 && !(isObj(items[from - 1]) && responsesInputMessage(items[from - 1] as Json))) from--;
  responsesOutputs(items.slice(Math.max(from, 0), Math.max(newest - 1, 0)), found, true);
  responsesOutputs(items.slice(newest), found);
}

function responses(body: Json, found: Indirect, appended: boolean): { user: string; system: string } {
  const system: string[] = [];
  const instructions = body['instructions'];
  if (typeof instructions === 'string') system.push(instructions);
  // Instructions given as items: their messages are the system prompt, a tool output in them is read too.
  for (const item of arr(instructions))
    if (isObj(item) && 'content' in item) system.push(contentText(item['content'], RESPONSES_TEXT));
  responsesOutputs(arr(instructions), found);
  const input = body['input'];
  if (typeof input === 'string') return { user: input, system: system.join('\n') };
  const items = arr(input);
  // A previous response or a stored conversation holds the history: the input is what is added now.
  const conversation = body['conversation'];
  const stored =
    typeof body['previous_response_id'] === 'string' ||
    typeof conversation === 'string' ||
    isObj(conversation);
  // The caller's words of the newest turn: every user message after the last item the model wrote (all of
  // them when the items are appended now); the tool outputs are read by responsesItems.
  const turn = appended || stored ? 0 : newestTurn(items, (i) => !responsesNotModel(i));
  let earlier = '';
  const newest: string[] = [];
  items.forEach((item, i) => {
    if (!isObj(item) || !('content' in item)) return;
    if (item['role'] === 'user') {
      const text = contentText(item['content'], RESPONSES_TEXT);
      if (i >= turn) newest.push(text);
      else if (text) earlier = text;
    } else if (item['role'] === 'system' || item['role'] === 'developer')
      system.push(contentText(item['content'], RESPONSES_TEXT));
  });
  responsesItems(items, found, appended || stored);
  return { user: userWords(newest, earlier), system: system.filter(Boolean).join('\n') };
}

/**
 * A field of a Gemini body under both spellings: its proto JSON accepts the field's lowerCamelCase name and
 * its proto (snake_case) name alike, and the provider acts on either. Both are read when both are sent, so
 * which one the provider keeps does not matter.
 */
function geminiFields(o: Json, camel: string, snake: string): unknown[] {
  return [o[camel], o[snake]].filter((v) => v !== undefined);
}

function gemini(body: Json, found: Indirect): { user: string; system: string } {
  const contents = arr(body['contents']);
  const turn = newestTurn(contents, (c) => c['role'] === 'model');
  let earlier = '';
  const newest: string[] = [];
  contents.forEach((c, i) => {
    if (!isObj(c)) return;
    // The output of code the provider ran (the code execution tool) sits in the model's content: it reached
    // the caller in a response, which nothing checks, and the model reads it again on every later turn.
    // Read as resent wherever it is in the history, as the provider-run results of the other formats are.
    if (c['role'] === 'model')
      for (const p of arr(c['parts']))
        if (isObj(p))
          for (const result of geminiFields(p, 'codeExecutionResult', 'code_execution_result'))
            if (isObj(result)) found.add(str(result['output']), 'tool', true);
    // A function response in any content of the newest turn (role user, or the older role function).
    if (i >= turn)
      for (const p of arr(c['parts']))
        if (isObj(p))
          for (const response of geminiFields(p, 'functionResponse', 'function_response'))
            if (isObj(response)) found.add(stringValues(response['response']), 'tool');
    if (c['role'] !== 'user' && c['role'] !== undefined) return;
    const texts: string[] = [];
    for (const p of arr(c['parts']))
      if (isObj(p) && p['thought'] !== true && typeof p['text'] === 'string') texts.push(p['text']);
    const text = texts.join('\n');
    if (i >= turn) newest.push(text);
    else if (text) earlier = text;
  });
  const user = userWords(newest, earlier);
  const system = geminiFields(body, 'systemInstruction', 'system_instruction')
    .flatMap((sys) => (isObj(sys) ? arr(sys['parts']) : []))
    .map((p) => (isObj(p) ? str(p['text']) : ''))
    .filter(Boolean)
    .join('\n');
  return { user, system };
}

/** Mistral conversations: `inputs` are the entries appended now, so every function result is new. */
function mistralConversation(body: Json, found: Indirect): { user: string; system: string } {
  const system = str(body['instructions']);
  const inputs = body['inputs'];
  if (typeof inputs === 'string') return { user: inputs, system };
  const users: string[] = [];
  for (const entry of arr(inputs)) {
    if (!isObj(entry)) continue;
    if (entry['type'] === 'function.result') found.add(str(entry['result']), 'tool');
    else if (entry['role'] === 'user') users.push(contentText(entry['content'], TEXT));
  }
  return { user: userWords(users, ''), system };
}

/**
 * The requests of a batch read as one: their user texts are one analysis; the system prompt is its context
 * when the batch has one (a batch usually runs one task over many inputs), none when its requests differ.
 */
function batchOf(
  requests: unknown[],
  readOne: (request: Json) => { user: string; system: string },
): { user: string; system: string } {
  const users: string[] = [];
  const systems = new Set<string>();
  for (const r of requests) {
    if (!isObj(r)) continue;
    const one = readOne(r);
    if (one.user) users.push(one.user);
    systems.add(one.system);
  }
  return { user: users.join('\n\n'), system: systems.size === 1 ? ([...systems][0] as string) : '' };
}

function read(format: BodyFormat, body: Json, found: Indirect): { user: string; system: string } {
  const none = { user: '', system: '' };
  switch (format) {
    case 'openai-chat':
      return chatMessages(body, found, false);
    case 'cohere-chat':
      return chatMessages(body, found, true);
    case 'anthropic-messages':
    case 'anthropic-count':
      return anthropicMessages(body, found);
    case 'openai-responses':
      return responses(body, found, false);
    case 'gemini-generate':
    case 'gemini-count':
      return gemini(body, found);
    case 'mistral-conversations':
      return mistralConversation(body, found);
    case 'cohere-v1-chat':
      // Only this request's tool results: those of `chat_history` were sent before.
      for (const r of arr(body['tool_results'])) if (isObj(r)) found.add(stringValues(r['outputs']), 'tool');
      for (const d of arr(body['documents'])) found.add(stringValues(d), 'document');
      return { user: str(body['message']), system: str(body['preamble']) };
    case 'openai-completions':
    case 'mistral-fim': {
      const prompt = body['prompt'];
      // A prompt of token ids (numbers) holds no text to read.
      const user =
        typeof prompt === 'string'
          ? prompt
          : arr(prompt)
              .filter((p) => typeof p === 'string')
              .join('\n');
      return { user, system: '' };
    }
    case 'anthropic-batches':
      // Every request of the batch is a turn a model will act on: one block of them all is refused whole.
      return batchOf(
        arr(body['requests']).map((r) => (isObj(r) ? r['params'] : undefined)),
        (params) => anthropicMessages(params, found),
      );
    case 'openai-conversations':
      // Conversation items are Responses input items, all appended now (created or added): every one is
      // new, whatever the model's items among them. Stored, they are used later through `conversation: id`
      // and never pass the proxy again.
      return responses({ input: arr(body['items']) }, found, true);
    case 'gemini-batch': {
      // Every inline request is a turn a model will act on, read as a batch of Messages is.
      const batch = body['batch'];
      const input = isObj(batch) ? (batch['inputConfig'] ?? batch['input_config']) : undefined;
      const requests = isObj(input) ? input['requests'] : undefined;
      return batchOf(
        arr(isObj(requests) ? requests['requests'] : undefined).map((r) =>
          isObj(r) ? r['request'] : undefined,
        ),
        (request) => gemini(request, found),
      );
    }
    case 'embeddings':
    case 'moderations':
    case 'gemini-embed':
    case 'cohere-embed':
    case 'cohere-rerank':
    case 'openai-input-tokens':
      // Counting tokens and embedding act on no instruction; their texts are tokenized all the same.
      return none;
  }
}

/**
 * What the injection check of a request in `format` reads: the user's last words, the system prompt as
 * their context, and the carried-in texts of the newest turn. One pass over the messages (and each text
 * read once), so a large tool output costs its length.
 */
export function promptTexts(format: BodyFormat, body: Json): PromptTexts {
  const found = new Indirect();
  const { user, system } = read(format, body, found);
  return { user, system, indirect: found.list };
}
