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

export type ToPage = SendAnswer | VaultEntries;
export type FromPage = SendRequest | { op: 'stream'; restored: number };
