import type { Tenant, TestServer } from './harness.js';
import { addRouteCases, type RouteCase } from './route-cases.js';

const CHAT_KEYS = ['sw'];

/** A real conversation of `tenant`, created through the protected chat (offline model). */
async function conversationOf(t: TestServer, tenant: Tenant): Promise<string> {
  const res = await t.request('POST', '/api/v1/gateway/chat', {
    key: tenant.sw,
    // Other cases store provider keys in the shared tenants; the offline model needs no network.
    body: {
      message: 'Remember anna.meier@example.com for me',
      routing: { preferredModel: 'parapet/parapet-offline-echo' },
    },
  });
  if (res.status !== 200) throw new Error(`chat failed: ${res.status} ${res.text}`);
  return res.body.conversationId as string;
}

/** Reading and deleting one conversation: the same cases, but for the method and the malformed id. */
function oneConversation(method: 'GET' | 'DELETE', badPath: string): RouteCase {
  const path = async (t: TestServer, tenant: Tenant) => ({
    path: `/api/v1/gateway/conversations/${await conversationOf(t, tenant)}`,
  });
  return {
    method,
    route: '/api/v1/gateway/conversations/:id',
    auth: 'apiKey',
    allowed: CHAT_KEYS,
    happy: path,
    happyStatus: 200,
    bad: async () => ({ path: badPath }),
    foreign: path,
  };
}

addRouteCases(
  {
    method: 'GET',
    route: '/api/v1/gateway/conversations',
    auth: 'apiKey',
    allowed: CHAT_KEYS,
    happy: async () => ({ path: '/api/v1/gateway/conversations?limit=5' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/gateway/conversations?limit=0' }),
  },
  oneConversation('GET', '/api/v1/gateway/conversations/not-a-conversation'),
  oneConversation('DELETE', '/api/v1/gateway/conversations/conv_short'),
  {
    method: 'GET',
    route: '/api/v1/gateway/usage',
    auth: 'apiKey',
    allowed: CHAT_KEYS,
    happy: async () => ({ path: '/api/v1/gateway/usage?from=2026-01-01&to=2026-02-01T00:00:00Z' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/gateway/usage?from=last-week' }),
  },
);
