// Messages between the MAIN-world hook (the page's own fetch/XHR/WebSocket) and the ISOLATED content
// script, over a MessageChannel whose port the hook hands over at document_start, before any page script
// runs; nothing travels through window.postMessage after that.

export const HANDSHAKE = 'parapet-bridge-v1';

export interface SendRequest {
  op: 'send';
  id: number;
  url: string;
  transport: 'fetch' | 'xhr' | 'websocket';
  texts: string[];
  /** the whole body of a request the hook cannot rewrite in place: refused when it would need tokens */
  opaque?: boolean;
}

export interface SendAnswer {
  op: 'answer';
  id: number;
  action: 'allow' | 'tokenize' | 'block';
  texts?: string[];
  reason?: string;
}

export interface VaultEntries {
  op: 'vault';
  entries: Array<{ token: string; type: string; value: string }>;
}

/**
 * What the user is typing, for the generic integration of sites whose request format is not known: the
 * hook asks only about requests that carry it. The page itself holds this text already.
 */
export interface PromptTyped {
  op: 'prompt';
  text: string;
  values: string[];
}

export type ToPage = SendAnswer | VaultEntries | PromptTyped;
export type FromPage = SendRequest | { op: 'stream'; restored: number };
