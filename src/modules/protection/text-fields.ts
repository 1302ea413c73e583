import type { ChatRequest } from '../providers/index.js';

/** One text-carrying place of a request that tokenization reads and rewrites. */
export interface TextField {
  /** A JSON-path-like name for protection.tokenizedFields, e.g. messages[2].content. */
  name: string;
  text: string;
  set(value: string): void;
}

/**
 * A string property of an object in the request. A class rather than an object with its own `set` closure:
 * a conversation has a field per message, and under tsx every closure created also gets its name defined.
 */
export class PropertyField implements TextField {
  constructor(
    readonly name: string,
    readonly text: string,
    private readonly holder: object,
    private readonly key: string,
  ) {}

  set(value: string): void {
    (this.holder as Record<string, unknown>)[this.key] = value;
  }
}

/**
 * Every text field of an OpenAI chat request that may carry personal data: message contents of all roles
 * (strings and text parts), tool-call arguments (the string values inside the JSON, so the JSON stays
 * valid) and tool results. Other part types (images, and thinking/signature blocks some clients send) are
 * left exactly as they are: changing a signed thinking block makes the provider refuse the next turn.
 * `commit()` writes the tool-call argument JSON back after the leaves were set.
 */
export function textFieldsOf(req: ChatRequest): { fields: TextField[]; commit(): void; userText: string } {
  const fields: TextField[] = [];
  const commits: Array<() => void> = [];
  req.messages.forEach((m, i) => {
    if (!m || typeof m !== 'object') return;
    const content = m.content as unknown;
    if (typeof content === 'string') {
      fields.push(new PropertyField(`messages[${i}].content`, content, m, 'content'));
    } else if (Array.isArray(content)) {
      content.forEach((part: unknown, j) => {
        const p = part as { type?: unknown; text?: unknown };
        if (p && p.type === 'text' && typeof p.text === 'string') {
          fields.push(new PropertyField(`messages[${i}].content[${j}].text`, p.text, p, 'text'));
        }
      });
    }
    (m.tool_calls ?? []).forEach((call, k) => {
      const fn = call?.function;
      if (fn)
        jsonTextFields(
          fn,
          'arguments',
          `messages[${i}].tool_calls[${k}].function.arguments`,
          fields,
          commits,
        );
    });
  });
  return {
    fields,
    userText: lastUserText(req),
    commit() {
      for (const c of commits) c();
    },
  };
}

/** Every string inside a parsed JSON value, as fields whose `set` writes back into the value. */
export function collectLeaves(
  value: unknown,
  name: string,
  out: TextField[],
  replaceRoot: (v: unknown) => void,
): void {
  if (typeof value === 'string') {
    out.push({ name, text: value, set: replaceRoot });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      collectLeaves(v, name, out, (next) => {
        value[i] = next;
      });
    });
    return;
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) collectLeaves(obj[key], name, out, (next) => (obj[key] = next));
  }
}

/**
 * What the user wrote last: the text of the last user message, which the injection check reads (earlier
 * turns were checked when they were sent; tool results and assistant turns are not the user's words).
 */
function lastUserText(req: ChatRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m?.role !== 'user') continue;
    const content = m.content as unknown;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content
      .map((p: { type?: unknown; text?: unknown }) =>
        p?.type === 'text' && typeof p.text === 'string' ? p.text : '',
      )
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

/**
 * The string values inside a property that holds JSON text (tool-call arguments): each becomes a field, and
 * a commit writes the JSON back once the values were set, so it stays valid JSON whatever a value holds.
 * Text that is not JSON is one field as it is.
 */
export function jsonTextFields(
  holder: object,
  key: string,
  name: string,
  fields: TextField[],
  commits: Array<() => void>,
): void {
  const obj = holder as Record<string, unknown>;
  const text = obj[key];
  if (typeof text !== 'string') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fields.push(new PropertyField(name, text, obj, key));
    return;
  }
  const before = fields.length;
  collectLeaves(parsed, name, fields, (next) => (parsed = next));
  if (fields.length > before) commits.push(() => (obj[key] = JSON.stringify(parsed)));
}
