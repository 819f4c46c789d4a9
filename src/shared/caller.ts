import type { FastifyRequest } from 'fastify';

/**
 * Whom a request counts for (its limits, usage and request log): the app of its app key, the client of its Bearer
 * token, or the client an MCP tool call runs for when the agent sent only OAuth and its client has no app
 * (`app:<id>` or `client:<client id>`); null for a request that names none.
 */
export function callerOf(request: FastifyRequest): string | null {
  if (request.apiApp) return `app:${request.apiApp.appId}`;
  if (request.token) return `client:${request.token.clientId}`;
  return request.agentClient === null ? null : `client:${request.agentClient}`;
}
