import type { FastifyRequest } from 'fastify';

/**
 * Whom a request counts for (its limits, usage and request log): the app of its app key, the client of its Bearer
 * token, or, for an MCP tool call of an agent that sent only OAuth and whose client has no app, the user its token acts
 * for (`app:<id>`, `client:<client id>` or `user:<id>`); null for a request that names none.
 */
export function callerOf(request: FastifyRequest): string | null {
  if (request.apiApp) return `app:${request.apiApp.appId}`;
  if (request.token) return `client:${request.token.clientId}`;
  return request.agentCaller;
}
