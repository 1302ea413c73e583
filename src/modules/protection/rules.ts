import {
  extend,
  IDENTIFIER,
  IDENTIFIER_MAP,
  JSON_TEXT,
  KEEP,
  keys,
  type Rule,
  recursive,
  type Walked,
  walkBody,
} from './walk.js';

// What the proxies do NOT tokenize in a request body, per format: the network proxy reads each provider's
// native format, the provider proxy OpenAI chat completions (with the fields of its own internal format,
// thought signatures and signed thinking parts). Every other string is run through DLP, wherever it is:
// fields the proxy knows, fields a new SDK version adds, provider extras, unknown part kinds. Tokenizing
// changes a string only where DLP finds personal data in it, so an enum-like setting ("auto", "high",
// "BLOCK_NONE") goes up unchanged without being listed. A key is listed only when:
//
//  - it is opaque or signed: base64 media, data URLs, thinking signatures, encrypted reasoning. Any change
//    breaks it (a signed block is refused next turn), and random base64 does hold what DLP matches (a
//    digit run between `/` and `+` passes as a card number); it is also the bulk of a body, not scanned;
//  - it names something the provider looks up or must match: the model, ids the provider issued (tool
//    calls, stored responses, files, cached content), tool names (matched against the tool definitions,
//    and pattern-checked), schema keywords that refer to property names, voice names (from a fixed list,
//    and several are people's names: DLP finds "Leda" and "Zephyr"), speaker labels of multi-speaker speech
//    (matched against the prompt's line labels, which DLP leaves alone). A token there makes the provider
//    reject the request or call the wrong thing, and these values are not what a person wrote;
//  - it is a locator the provider fetches (image, file and document URLs): presigned URLs carry access key
//    ids that DLP reports as API keys, and a tokenized URL fetches nothing;
//  - it is a remote MCP server the provider calls for the organization (Responses `mcp` tools' server_url,
//    headers and authorization; Anthropic `mcp_servers`' url, name and authorization_token): credentials
//    the organization deliberately sends the provider for its own MCP server, not data about a person. A
//    tokenized credential or URL makes every MCP call fail;
//  - or it is a frequent enum (`role`, `type`): one per message or part, kept to spare a hash and a cache
//    lookup per string on every call.
//
// What is deliberately NOT kept, so tokenized: `user`, `metadata` values, `labels`, `safety_identifier`
// (end-user identifiers, often an e-mail address; listed as IDENTIFIER where known so that `blockTypes`
// never refuse a request over them, since an app sends one with every call); participant names (`messages[].name`); tool and schema
// descriptions, enum values and examples (a token in an enum makes the model answer with the token, which
// the answer's rehydration restores); stop sequences (the model writes tokens, so a stop sequence holding
// personal data only matches once tokenized the same way, which one request's session does); reasoning
// summaries and Gemini thought text (model text the proxy hands out with its tokens in; only their
// separate signature or encrypted content is verified).
//
// Object keys are names a schema, a tool or the caller's code reads (schema `properties`, tool-call
// arguments, a tool's `input`, Gemini `args`, prompt `variables`), so they stay as they are, except in the
// free-form maps whose keys are data (Rule.dataKeys): `metadata` (OpenAI chat and Responses, Anthropic),
// Gemini/Vertex `labels` and a Cohere document's `data`. A personal datum used as a key there
// (`{"metadata": {"jane@example.com": "vip"}}`), or in an object nested in such a map (which the provider
// refuses, or Cohere renders for the model), is tokenized like a value, and restored where the answer
// echoes it (the Responses API echoes `metadata`): json-rehydrate.ts restores keys too.

/** Keeps every string below (settings made only of enums and tool names). */
const KEEP_ALL = recursive((self) => ({ keep: true, other: self }));

/** Data a schema carries (defaults, examples, enums, consts): every string below is text, whatever its key. */
const DATA: Rule = {};

/**
 * A JSON schema (tool parameters, structured outputs): `type`, `format`, `$ref` and `pattern` are the
 * schema language, `required`, `propertyOrdering` and `dependentRequired` name properties (object keys,
 * which stay as they are). `properties`, `patternProperties`, `$defs`, `definitions` and
 * `dependentSchemas` map names to schemas; `default`, `examples`, `example`, `enum` and `const` hold data,
 * tokenized whatever its keys are (a default object with a `pattern` or `type` key is still data). Every
 * other key (items, anyOf, additionalProperties…) holds a schema again; descriptions and titles are text.
 */
const SCHEMA = recursive((self) => {
  const schemas: Rule = { other: self };
  return keys(
    {
      type: KEEP,
      format: KEEP,
      $ref: KEEP,
      pattern: KEEP,
      required: KEEP,
      propertyOrdering: KEEP,
      dependentRequired: KEEP_ALL,
      properties: schemas,
      patternProperties: schemas,
      $defs: schemas,
      definitions: schemas,
      dependentSchemas: schemas,
      default: DATA,
      examples: DATA,
      example: DATA,
      enum: DATA,
      const: DATA,
    },
    { other: self },
  );
});

const TOOL_CALL_FN = keys({ name: KEEP, arguments: JSON_TEXT });

/**
 * Thinking as clients of the provider proxy send it back in chat messages (Anthropic's blocks): signed, so
 * refused next turn if changed. Mistral's thinking part holds a list of text chunks: those stay text.
 */
const SIGNED_PART_KEYS = { thinking: KEEP, signature: KEEP, data: KEEP };
const SIGNED_TYPES = new Set(['thinking', 'redacted_thinking']);

/** A tool definition: chat (`function`), Responses (flat), custom tools; name and type kept. */
const TOOL_KEYS = {
  type: KEEP,
  name: KEEP,
  parameters: SCHEMA,
  function: keys({ name: KEEP, parameters: SCHEMA }),
  custom: keys({ name: KEEP }),
  // Responses file search: the provider's vector stores.
  vector_store_ids: KEEP,
};
const TOOL = keys(TOOL_KEYS, { pick: (t) => (t['type'] === 'mcp' ? MCP_TOOL : undefined) });
/**
 * A Responses remote MCP tool: the server's address and the credentials the organization gives the
 * provider to call it with (headers, authorization) are kept verbatim. They are deliberately sent for the
 * provider to use, not personal data about anyone; a token there (DLP reads a bearer token as an API key,
 * a digit run in a URL as a card number) makes every call to the MCP server fail. The label and tool
 * names are matched against the calls (`mcp_call.server_label`, `allowed_tools`).
 */
const MCP_TOOL = keys({
  ...TOOL_KEYS,
  server_label: KEEP,
  server_url: KEEP,
  connector_id: KEEP,
  headers: KEEP_ALL,
  authorization: KEEP,
  allowed_tools: KEEP_ALL,
  require_approval: KEEP_ALL,
});

/** A content part of OpenAI chat, the Responses API, Mistral, Groq and Cohere. */
const PART_BASE = {
  type: KEEP,
  // A data URL or a URL the provider fetches; Mistral also takes the URL as a plain string here.
  image_url: keys({ url: KEEP }, { keep: true }),
  input_audio: keys({ data: KEEP }, { keep: true }),
  // OpenAI chat file parts: the bytes and the id; the file name is text.
  file: keys({ file_data: KEEP, file_id: KEEP }),
  // Responses input_image / input_file, Mistral document_url.
  file_id: KEEP,
  file_data: KEEP,
  file_url: KEEP,
  document_url: KEEP,
};
const PART = keys(PART_BASE, {
  pick: (p) => (SIGNED_TYPES.has(p['type'] as string) ? SIGNED_PART : undefined),
});
const SIGNED_PART = keys({ ...PART_BASE, ...SIGNED_PART_KEYS });

const RESPONSE_FORMAT = keys({ type: KEEP, json_schema: keys({ name: KEEP, schema: SCHEMA }) });

/** OpenAI chat message (Mistral and Groq alike). */
const MESSAGE = keys(
  {
    role: KEEP,
    content: PART,
    tool_calls: keys({
      id: KEEP,
      type: KEEP,
      function: TOOL_CALL_FN,
      custom: keys({ name: KEEP }),
      // The provider proxy's internal format: Gemini's thought signature, replayed verbatim.
      thought_signature: KEEP,
    }),
    tool_call_id: KEEP,
    function_call: TOOL_CALL_FN,
    audio: keys({ id: KEEP }),
  },
  // A tool result's `name` (Mistral, legacy function messages) is the tool's; another role's is a person's.
  { pick: (m) => (m['role'] === 'tool' || m['role'] === 'function' ? TOOL_MESSAGE : undefined) },
);
const TOOL_MESSAGE = extend(MESSAGE, { name: KEEP });

/**
 * End-user identifiers an app sends with every call (often the employee's e-mail): tokenized, so never in
 * clear at the provider, but never a reason to refuse the request (see IDENTIFIER).
 */
const IDENTIFIERS = { user: IDENTIFIER, safety_identifier: IDENTIFIER, metadata: IDENTIFIER_MAP };

const OPENAI_CHAT = keys({
  ...IDENTIFIERS,
  model: KEEP,
  messages: MESSAGE,
  tools: TOOL,
  functions: keys({ name: KEEP, parameters: SCHEMA }),
  tool_choice: KEEP_ALL,
  function_call: KEEP_ALL,
  response_format: RESPONSE_FORMAT,
  audio: keys({ voice: KEEP_ALL }),
  // Mistral agents completions: the agent the provider looks up.
  agent_id: KEEP,
});

/** A Responses API input item (and the same shapes in `instructions`). */
const ITEM = keys(
  {
    type: KEEP,
    role: KEEP,
    id: KEEP,
    call_id: KEEP,
    name: KEEP,
    arguments: JSON_TEXT,
    content: PART,
    // function_call_output: text or parts; computer_call_output: a screenshot part.
    output: PART,
    summary: PART,
    encrypted_content: KEEP,
    approval_request_id: KEEP,
    container_id: KEEP,
    // mcp_call, mcp_list_tools, mcp_approval_request: the MCP tool's label, matched against `tools`.
    server_label: KEEP,
  },
  { pick: (item) => (item['type'] === 'image_generation_call' ? IMAGE_ITEM : undefined) },
);
// An image generation call given back: its `result` is the base64 image.
const IMAGE_ITEM = extend(ITEM, { result: KEEP });

const OPENAI_RESPONSES = keys({
  ...IDENTIFIERS,
  model: KEEP,
  input: ITEM,
  instructions: ITEM,
  previous_response_id: KEEP,
  conversation: keys({ id: KEEP }, { keep: true }),
  prompt: keys({ id: KEEP, version: KEEP, variables: { other: PART } }),
  tools: TOOL,
  tool_choice: KEEP_ALL,
  text: keys({ format: keys({ type: KEEP, name: KEEP, schema: SCHEMA }) }),
});

const EMBEDDINGS = keys({ model: KEEP, user: IDENTIFIER });

/** OpenAI conversations (create, update, add items): `items` are Responses input items. */
const OPENAI_CONVERSATIONS = keys({ metadata: IDENTIFIER_MAP, items: ITEM });

/** OpenAI moderations: `input` is text, or text and image parts (whose URLs are kept). */
const MODERATIONS = keys({ model: KEEP, input: PART });

/** An Anthropic source: base64, URL and file sources are kept; a plain-text source's data is text. */
const SOURCE_BASE = { type: KEEP, media_type: KEEP, url: KEEP, file_id: KEEP };
const SOURCE_TEXT = keys(SOURCE_BASE);

/** An Anthropic content block, at any depth (tool results and content sources hold blocks too). */
const BLOCK = recursive((self) =>
  keys({
    type: KEEP,
    // tool_use, server_tool_use, mcp_tool_use: the call's id and the tool's name (and the MCP server's,
    // matched against `mcp_servers[].name`); `input` is free text.
    id: KEEP,
    name: KEEP,
    server_name: KEEP,
    tool_use_id: KEEP,
    // Signed thinking: Anthropic refuses a turn whose thinking block changed.
    thinking: KEEP,
    signature: KEEP,
    // redacted_thinking (encrypted).
    data: KEEP,
    encrypted_content: KEEP,
    file_id: KEEP,
    source: keys(
      { ...SOURCE_BASE, data: KEEP, content: self },
      { pick: (s) => (s['type'] === 'text' ? SOURCE_TEXT : undefined) },
    ),
    content: self,
    citations: keys({ type: KEEP, encrypted_index: KEEP }),
  }),
);

const ANTHROPIC_MESSAGES = keys({
  // metadata.user_id: the end user's identifier (IDENTIFIERS). Anthropic takes no other key, but one sent
  // anyway is data like the rest: it reaches Anthropic's refusal tokenized.
  metadata: IDENTIFIER_MAP,
  model: KEEP,
  system: BLOCK,
  messages: keys({ role: KEEP, content: BLOCK }),
  tools: keys({ type: KEEP, name: KEEP, input_schema: SCHEMA }),
  tool_choice: KEEP_ALL,
  container: KEEP,
  // Remote MCP servers (as MCP_TOOL): the address, the name the blocks refer to and the credential the
  // organization gives Anthropic to call them with, kept verbatim; `tool_configuration` names tools.
  mcp_servers: keys({
    type: KEEP,
    url: KEEP,
    name: KEEP,
    authorization_token: KEEP,
    tool_configuration: keys({ allowed_tools: KEEP }),
  }),
});

/** Anthropic message batches: each request's `params` is a Messages body; `custom_id` is the caller's key. */
const ANTHROPIC_BATCHES = keys({ requests: keys({ custom_id: KEEP, params: ANTHROPIC_MESSAGES }) });

/** A Gemini part: media bytes and file URIs, function names and ids, and the thought signature kept. */
const GEMINI_PART = recursive((self) =>
  keys({
    thoughtSignature: KEEP,
    inlineData: keys({ data: KEEP, mimeType: KEEP }),
    fileData: keys({ fileUri: KEEP, mimeType: KEEP }),
    functionCall: keys({ id: KEEP, name: KEEP }),
    // Gemini 3 function responses may carry media parts of their own.
    functionResponse: keys({ id: KEEP, name: KEEP, parts: self }),
  }),
);
const GEMINI_CONTENT = keys({ role: KEEP, parts: GEMINI_PART });
const VOICE = keys({ prebuiltVoiceConfig: keys({ voiceName: KEEP }) });

/**
 * Vertex AI labels (billing tags; the @google/genai SDK sends them to Vertex AI only): keys and values are
 * end-user data, in a charset of lower-case letters, digits, `_` and `-`. Their tokens are written in lower
 * case, which that charset allows (`tkn_email_…`), so a label holding personal data goes up tokenized and
 * valid, instead of in clear or refused.
 */
const LABELS: Rule = { identifier: true, dataKeys: true, lowerCase: true };

const GEMINI_GENERATE = keys({
  model: KEEP,
  labels: LABELS,
  contents: GEMINI_CONTENT,
  systemInstruction: GEMINI_CONTENT,
  cachedContent: KEEP,
  tools: keys({
    functionDeclarations: keys({
      name: KEEP,
      parameters: SCHEMA,
      parametersJsonSchema: SCHEMA,
      response: SCHEMA,
      responseJsonSchema: SCHEMA,
    }),
  }),
  toolConfig: keys({ functionCallingConfig: keys({ allowedFunctionNames: KEEP }) }),
  // Enums only, several per request: kept rather than hashed one by one.
  safetySettings: KEEP_ALL,
  generationConfig: keys({
    responseSchema: SCHEMA,
    responseJsonSchema: SCHEMA,
    speechConfig: keys({
      voiceConfig: VOICE,
      // A speaker is the label of the prompt's lines ("Joe: …") that the voice reads: DLP finds "Joe" alone
      // but not as a line label, so a token here would match no line.
      multiSpeakerVoiceConfig: keys({ speakerVoiceConfigs: keys({ speaker: KEEP, voiceConfig: VOICE }) }),
    }),
  }),
});

/** Gemini countTokens: `contents`, or a whole generateContent request under `generateContentRequest`. */
const GEMINI_COUNT = extend(GEMINI_GENERATE, { generateContentRequest: GEMINI_GENERATE });

/** Gemini embedContent (one `content`) and batchEmbedContents (`requests`, each an embedContent body). */
const GEMINI_EMBED_ONE = { model: KEEP, taskType: KEEP, content: GEMINI_CONTENT };
const GEMINI_EMBED = keys({ ...GEMINI_EMBED_ONE, requests: keys(GEMINI_EMBED_ONE) });

/**
 * Gemini batches with inline requests (`:batchGenerateContent`, `:asyncBatchEmbedContent`): each
 * `batch.inputConfig.requests.requests[].request` is a generateContent or an embedContent body. Proto JSON
 * takes both spellings of a field name, so both are listed; an input file's name is the provider's.
 */
const GEMINI_BATCH_REQUEST = extend(GEMINI_GENERATE, { taskType: KEEP, content: GEMINI_CONTENT });
const GEMINI_INLINE = keys({ requests: keys({ request: GEMINI_BATCH_REQUEST }) });
const GEMINI_INPUT = keys({ fileName: KEEP, file_name: KEEP, requests: GEMINI_INLINE });
const GEMINI_BATCH = keys({
  batch: keys({ model: KEEP, name: KEEP, inputConfig: GEMINI_INPUT, input_config: GEMINI_INPUT }),
});

/**
 * Mistral conversations (start, append, restart): `inputs` is text or entries (messages, function calls
 * and results); agent, entry and call ids and tool names are the provider's.
 */
const MISTRAL_ENTRY = keys({
  object: KEEP,
  type: KEEP,
  role: KEEP,
  id: KEEP,
  tool_call_id: KEEP,
  name: KEEP,
  arguments: JSON_TEXT,
  agent_id: KEEP,
  model: KEEP,
  from_agent_id: KEEP,
  to_agent_id: KEEP,
  content: PART,
});
const MISTRAL_CONVERSATIONS = keys({
  model: KEEP,
  agent_id: KEEP,
  from_entry_id: KEEP,
  handoff_execution: KEEP,
  inputs: MISTRAL_ENTRY,
  tools: TOOL,
  completion_args: keys({ response_format: RESPONSE_FORMAT, tool_choice: KEEP_ALL }),
});

/**
 * Cohere v1 chat: `message`, `preamble` and `chat_history` are text; tool names and parameter types,
 * connector settings and the conversation id are the provider's. Documents as in v2.
 */
const COHERE_TOOL_CALL = keys({ name: KEEP });
const COHERE_V1_CHAT = keys({
  model: KEEP,
  conversation_id: KEEP,
  prompt_truncation: KEEP,
  citation_quality: KEEP,
  connectors: KEEP_ALL,
  chat_history: keys({
    role: KEEP,
    tool_calls: COHERE_TOOL_CALL,
    tool_results: keys({ call: COHERE_TOOL_CALL }),
  }),
  tools: keys({ name: KEEP, parameter_definitions: { other: keys({ type: KEEP }) } }),
  tool_results: keys({ call: COHERE_TOOL_CALL }),
  response_format: keys({ type: KEEP, schema: SCHEMA }),
  documents: { dataKeys: true },
});

/** Cohere embed (v1 and v2): `texts`, and v2 `inputs` of text and image parts (image URLs and bytes kept). */
const COHERE_EMBED = keys({
  model: KEEP,
  input_type: KEEP,
  embedding_types: KEEP,
  truncate: KEEP,
  images: KEEP,
  inputs: keys({ content: PART }),
});

/** Cohere rerank: `query` and `documents` are text (v1 documents may be objects, read by `rank_fields`). */
const COHERE_RERANK = keys({ model: KEEP, rank_fields: KEEP });

/** Cohere v2 chat: OpenAI's message shape; grounding `documents` are free text (ids included). */
const COHERE_CHAT = keys({
  model: KEEP,
  messages: keys({
    role: KEEP,
    content: PART,
    tool_calls: keys({ id: KEEP, type: KEEP, function: TOOL_CALL_FN }),
    tool_call_id: KEEP,
  }),
  tools: TOOL,
  // Cohere's json_schema is the schema itself.
  response_format: keys({ type: KEEP, json_schema: SCHEMA }),
  // Grounding documents: every string (ids included), and the keys of a document's `data`, which are the
  // caller's own field names for the model to read, not names a schema or tool matches.
  documents: keys({ data: { dataKeys: true } }),
});

/** The request formats whose bodies are walked: the provider proxy's is openai-chat. */
export type BodyFormat =
  | 'openai-chat'
  | 'openai-responses'
  | 'embeddings'
  | 'anthropic-messages'
  | 'gemini-generate'
  | 'cohere-chat'
  | 'openai-completions'
  | 'moderations'
  | 'anthropic-count'
  | 'anthropic-batches'
  | 'gemini-count'
  | 'gemini-embed'
  | 'mistral-fim'
  | 'mistral-conversations'
  | 'cohere-v1-chat'
  | 'cohere-embed'
  | 'cohere-rerank'
  | 'openai-conversations'
  | 'openai-input-tokens'
  | 'gemini-batch';

const RULES: Record<BodyFormat, Rule> = {
  'openai-chat': OPENAI_CHAT,
  'openai-responses': OPENAI_RESPONSES,
  embeddings: EMBEDDINGS,
  'anthropic-messages': ANTHROPIC_MESSAGES,
  'gemini-generate': GEMINI_GENERATE,
  'cohere-chat': COHERE_CHAT,
  // Legacy completions and Mistral FIM: `prompt`, `suffix` and `stop` are text, the model kept.
  'openai-completions': EMBEDDINGS,
  moderations: MODERATIONS,
  'anthropic-count': ANTHROPIC_MESSAGES,
  'anthropic-batches': ANTHROPIC_BATCHES,
  'gemini-count': GEMINI_COUNT,
  'gemini-embed': GEMINI_EMBED,
  'mistral-fim': EMBEDDINGS,
  'mistral-conversations': MISTRAL_CONVERSATIONS,
  'cohere-v1-chat': COHERE_V1_CHAT,
  'cohere-embed': COHERE_EMBED,
  'cohere-rerank': COHERE_RERANK,
  'openai-conversations': OPENAI_CONVERSATIONS,
  // Responses input token counts: a Responses body.
  'openai-input-tokens': OPENAI_RESPONSES,
  'gemini-batch': GEMINI_BATCH,
};

/**
 * Every string of a request body in `format` that may carry personal data, as fields whose `set` writes
 * into the body (then `commit()` for JSON texts): the whole body is walked once, and every string is a
 * field except the structural and opaque values the format's rule lists above.
 */
export function requestFields(format: BodyFormat, body: Record<string, unknown>): Walked {
  return walkBody(body, RULES[format]);
}
