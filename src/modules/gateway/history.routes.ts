import type { FastifyRequest } from 'fastify';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { DeletedSchema } from './gateway.schemas.js';
import type { GatewayHistory } from './history.service.js';
import {
  ConversationListQuery,
  ConversationListSchema,
  ConversationParams,
  ConversationSchema,
  UsageQuery,
  UsageReportSchema,
} from './history.schemas.js';

/** Dashboard roles that may chat and erase conversations: a viewer only reads (docs/auth.md). */
export const CHAT_SESSION_ROLES = ['owner', 'admin', 'member'] as const;

// The same key as the chat that produced the data: whoever may chat for the organization may read it back.
// session too: the dashboard's chat page lists and reads conversations with its cookie. Reading and erasing
// are no chat requests (readOut): they count against the rate limit, not the chat quota, so the Overview's
// usage read neither spends a paid request nor shows up in the chat request chart, and an organization
// whose quota is spent can still read its usage and erase a conversation.
const AUTH = { auth: { mode: 'apiKey', product: 'chat', session: true, readOut: true } } as const;
const ERASE = {
  auth: { mode: 'apiKey', product: 'chat', session: true, sessionRoles: CHAT_SESSION_ROLES, readOut: true },
} as const;

/**
 * With a dashboard session, the conversations that user started are all a request may touch, whatever the
 * role: the chat page is a person's own chat, and one user's conversations hold their personal data (its
 * tokens come back rehydrated when it is continued). An API key stands for the organization and sees every
 * conversation: that is how a security team reads and erases them.
 */
function onlyStartedBy(request: FastifyRequest): string | undefined {
  const { via, user } = callerOf(request);
  return via === 'session' && user ? user.id : undefined;
}

export function gatewayHistoryRoutes(history: GatewayHistory) {
  return async (app: App) => {
    app.get(
      '/api/v1/gateway/conversations',
      {
        config: AUTH,
        schema: {
          operationId: 'gatewayConversationsList',
          tags: ['gateway'],
          summary: "The organization's stored chat conversations, newest first",
          querystring: ConversationListQuery,
          response: { 200: ConversationListSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) =>
        history.list(
          callerOf(request).org.id,
          { limit: request.query.limit ?? 20, offset: request.query.offset ?? 0 },
          onlyStartedBy(request),
        ),
    );

    app.get(
      '/api/v1/gateway/conversations/:id',
      {
        config: AUTH,
        schema: {
          operationId: 'gatewayConversationGet',
          tags: ['gateway'],
          summary: 'One conversation as stored (tokenized), with the vault session that can rehydrate it',
          params: ConversationParams,
          response: { 200: ConversationSchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => history.get(callerOf(request).org.id, request.params.id, onlyStartedBy(request)),
    );

    app.delete(
      '/api/v1/gateway/conversations/:id',
      {
        config: ERASE,
        schema: {
          operationId: 'gatewayConversationDelete',
          tags: ['gateway'],
          summary: 'Erase a conversation together with its vault session and the originals it holds',
          params: ConversationParams,
          response: { 200: DeletedSchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        await history.remove(callerOf(request).org.id, request.params.id, onlyStartedBy(request));
        return { success: true };
      },
    );

    app.get(
      '/api/v1/gateway/usage',
      {
        config: AUTH,
        schema: {
          operationId: 'gatewayUsage',
          tags: ['gateway'],
          summary: 'Provider calls, tokens and cost of the chat and the proxy over a period (to exclusive)',
          querystring: UsageQuery,
          response: { 200: UsageReportSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => history.usage(callerOf(request).org.id, request.query),
    );
  };
}
