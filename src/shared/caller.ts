import type { FastifyRequest } from 'fastify';

/**
 * Whom a request counts for (its limits, usage and request log): the app of its app key; for a Bearer token, its
 * client when the client belongs to an app, else the user it acts for (oauth/token-caller.ts); for an MCP tool call of
 * an agent that sent only OAuth, the same, as the MCP endpoint worked it out (`app:<id>`, `client:<client id>` or
 * `user:<id>`); null for a request that names none.
 */
export function callerOf(request: FastifyRequest): string | null {
  if (request.apiApp) return `app:${request.apiApp.appId}`;
  if (request.token) return request.tokenCaller ?? `client:${request.token.clientId}`;
  return request.agentCaller;
}
