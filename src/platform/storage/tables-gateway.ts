/** Row types of the gateway module's tables (migration 0004-gateway). */

export interface GatewayConversationsTable {
  id: string;
  org_id: string;
  /** The DLP vault session every turn of the conversation tokenizes into, so a value keeps its token. */
  vault_session_id: string;
  /** JSON array of the tokenized chat messages ({role, content}); originals never stored here. */
  messages: string;
  model: string;
  /** The dashboard user who started it; null when an API key did (migration 0060-conversation-owner). */
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface GatewayProviderKeysTable {
  org_id: string;
  provider: string;
  /** The organization's provider key, sealed with the master key; never returned. */
  key_sealed: string;
  /** Last four characters, so the dashboard can tell keys apart. */
  key_hint: string;
  base_url: string | null;
  updated_by: string | null;
  updated_at: string;
}

export interface GatewayForceTable {
  org_id: string;
  enabled: number;
  enabled_at: string | null;
  enabled_by: string | null;
  updated_at: string;
}

export interface GatewayUsageTable {
  id: string;
  org_id: string;
  endpoint: string;
  provider: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  /** 'provider' when the upstream reported usage, 'estimated' when it did not (aborted or cut streams). */
  usage_source: string;
  outcome: string;
  conversation_id: string | null;
  created_at: string;
}
