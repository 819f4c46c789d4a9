/**
 * MCP (docs/mcp.md): the service's tools for AI agents at `/mcp`, over the same data, limits and codes as the API.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Area, Infrastructure } from '../../infrastructure.js';
import { presentedAppKey } from '../../net/drop-in-aliases.js';
import { McpEndpoint, type ApiCall } from './mcp-endpoint.js';
import { TOOLS } from './mcp-tools.js';

/** The request as the SDK's web-standard transport reads it (its body is passed parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, `http://${request.host || 'localhost'}`), { method: request.method, headers });
}

export function mcpArea(app: FastifyInstance, infra: Infrastructure): Area {
  const api: ApiCall = async (url, headers) => {
    const answer = await app.inject({ method: 'GET', url, headers });
    const retryAfter = answer.headers['retry-after'];
    return { status: answer.statusCode, body: answer.json(), retryAfter: retryAfter === undefined ? undefined : String(retryAfter) };
  };
  const endpoint = new McpEndpoint(TOOLS, api, infra.version);
  return {
    routes: async (scope) => {
      scope.post('/mcp', { config: { auth: 'apiKey' }, schema: { hide: true } }, async (request, reply) => {
        const forward: Record<string, string> = { 'x-svc-api-key': presentedAppKey(request.headers).key! };
        const language = request.headers['accept-language'];
        if (language) forward['accept-language'] = language;
        const answer = await endpoint.handle(webRequest(request), request.body, forward);
        reply.code(answer.status);
        answer.headers.forEach((value, name) => { if (name !== 'content-length') reply.header(name, value); });
        return reply.send(answer.body);
      });
    },
  };
}
