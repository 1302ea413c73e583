import type { ChatRequest } from '../providers/index.js';

/** One text-carrying place of a request that tokenization reads and rewrites. */
export interface TextField {
  /** A JSON-path-like name for protection.tokenizedFields, e.g. messages[2].content. */
  name: string;
  text: string;
  /**
   * An end-user identifier (`user`, `metadata`): tokenized like any field, but a type in the organization's
   * `dlp.blockTypes` found here does not refuse the request. Apps put the employee's e-mail there on every
   * call, so blocking EMAIL would refuse all of them, while the value never reaches the provider in clear.
   */
  readonly noBlock?: boolean;
  set(value: string): void;
}

/**
 * What the user wrote last in an OpenAI chat request: the text of the last user message, which the
 * provider proxy's injection check reads (earlier turns were checked when they were sent; tool results and
 * assistant turns are not the user's words). What is tokenized is every string of the body (rules.ts).
 */
export function chatUserText(req: ChatRequest): string {
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
