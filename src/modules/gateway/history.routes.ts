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

// The same key as the chat that produced the data: whoever may chat for the organization may read it back.
// session too: the dashboard's chat page lists and reads conversations with its cookie.
const AUTH = { auth: { mode: 'apiKey', product: 'chat', session: true } } as const;

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
        history.list(callerOf(request).org.id, {
          limit: request.query.limit ?? 20,
          offset: request.query.offset ?? 0,
        }),
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
      async (request) => history.get(callerOf(request).org.id, request.params.id),
    );

    app.delete(
      '/api/v1/gateway/conversations/:id',
      {
        config: AUTH,
        schema: {
          operationId: 'gatewayConversationDelete',
          tags: ['gateway'],
          summary: 'Erase a conversation together with its vault session and the originals it holds',
          params: ConversationParams,
          response: { 200: DeletedSchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        await history.remove(callerOf(request).org.id, request.params.id);
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
