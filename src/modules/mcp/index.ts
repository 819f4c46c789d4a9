/**
 * MCP (docs/mcp.md): the service's tools for AI agents at `/mcp`, over the same data, limits and codes as the API.
 * The endpoint is a protected resource (RFC 9728): an app key opens the public tools; the tools that act for a user
 * take an access token issued for this resource (RFC 8707), which the HTTP API refuses, as this endpoint refuses the
 * API's.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Area, Infrastructure } from '../../infrastructure.js';
import { presentedAppKey } from '../../net/drop-in-aliases.js';
import { apiErrorOf } from '../../plugins/error-handler.js';
import { ApiError, ERROR_STATUS } from '../../shared/api-error.js';
import { errorTimestamp } from '../../shared/time.js';
import { INTERNAL_CALLER_HEADER } from '../accounts/app-key-auth.js';
import type { AccountsArea } from '../accounts/index.js';
import { BEARER_CREDENTIAL, INTERNAL_HEADER } from '../oauth/bearer-auth.js';
import type { OAuthArea } from '../oauth/index.js';
import { hasScope } from '../oauth/scopes.js';
import { InvalidTokenError, type AccessTokenClaims } from '../oauth/token-service.js';
import { McpEndpoint, messageId, RpcError, type ApiCall, type Forward } from './mcp-endpoint.js';
import { TOOLS } from './mcp-tools.js';

/** The request as the SDK's web-standard transport reads it (its body is passed parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, `http://${request.host || 'localhost'}`), {
    method: request.method,
    headers,
  });
}

const quoted = (text: string) => text.replace(/["\\]/g, "'");

/** Fastify's codes for a body that is not JSON: JSON-RPC's parse error. */
const NOT_JSON = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/**
 * Every refusal of /mcp in JSON-RPC's shape (an MCP client parses nothing else), with the HTTP status and headers the
 * API would give (401 and its challenge, 429 and Retry-After) and the API's error body in `error.data`.
 */
function rpcErrorHandler(clock: () => number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const id = messageId(request.body);
    if (error instanceof RpcError)
      return reply
        .status(error.status)
        .send({ jsonrpc: '2.0', id, error: { code: error.rpcCode, message: error.message } });
    const apiError = apiErrorOf(error, request);
    const notJson = NOT_JSON.has(error.code);
    request.errorCode = apiError.code;
    return reply
      .status(ERROR_STATUS[apiError.code])
      .headers(apiError.headers)
      .header('Content-Language', 'en')
      .send({
        jsonrpc: '2.0',
        id,
        error: {
          code: notJson ? -32700 : -32000,
          message: apiError.message,
          data: {
            code: apiError.code,
            message: apiError.message,
            timestamp: errorTimestamp(clock()),
            details: apiError.details,
          },
        },
      });
  };
}

export function mcpArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea; oauth: OAuthArea },
): Area {
  const { resource, issuer, internalSecret } = deps.oauth.mcp;
  const metadataUrl = `${infra.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;
  const userScopes = [...new Set(TOOLS.flatMap((tool) => (tool.scope ? [tool.scope] : [])))];
  /** The web origins a browser may call the endpoint from: the service's own and CORS_ORIGINS. */
  const origins = new Set([new URL(infra.config.publicBaseUrl).origin, ...infra.config.corsOrigins]);
  /** RFC 9728 5.1 and RFC 6750 3: where an agent finds how to get a token, and what went wrong. */
  const challenge = (error?: { code?: string; description?: string; scope?: string }) => ({
    'WWW-Authenticate': [
      'Bearer realm="svc"',
      `resource_metadata="${metadataUrl}"`,
      ...(error?.code ? [`error="${error.code}"`] : []),
      ...(error?.description ? [`error_description="${quoted(error.description)}"`] : []),
      ...(error?.scope ? [`scope="${error.scope}"`] : []),
    ].join(', '),
  });

  const api: ApiCall = async ({ method, url, headers, payload }) => {
    const answer = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    const retryAfter = answer.headers['retry-after'];
    return {
      status: answer.statusCode,
      body: answer.json(),
      retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
    };
  };
  const endpoint = new McpEndpoint(TOOLS, api, infra.version);

  /** Whom a token-only call counts for: the app its client belongs to, else the user the token acts for (token-caller.ts). */
  async function callerOfToken(claims: { clientId: string; userId: number }): Promise<string> {
    const appId = await deps.oauth.tokenCallers.appOf(claims.clientId);
    return appId === null ? `user:${claims.userId}` : `app:${appId}`;
  }

  /** The app key, when one is sent, checked as the API checks it (the API checks it again on every tool call), and its app. */
  async function appKeyOf(request: FastifyRequest): Promise<{ key: string; appId: number } | null> {
    const { key, conflict, header } = presentedAppKey(request.headers);
    if (conflict)
      throw new ApiError(
        'C0001',
        `Two different app keys were sent, in ${conflict.join(' and ')}: send one key, in X-SVC-API-Key`,
        conflict[1]!,
      );
    if (!key) return null;
    const known = deps.accounts.appKeys.known(key) ?? (await deps.accounts.appKeys.authenticate(key));
    if (!known)
      throw new ApiError('C0001', `The app key in ${header} is not valid or has been revoked`, header!, challenge());
    return { key, appId: known.appId };
  }

  /** The access token, when one is sent: it must have been issued for this endpoint. */
  async function tokenOf(request: FastifyRequest): Promise<{ raw: string; claims: AccessTokenClaims } | null> {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const match = BEARER_CREDENTIAL.exec(header.trim());
    if (!match)
      throw new ApiError(
        'C0003',
        'The Authorization header must be "Bearer <access token>"',
        'Authorization',
        challenge({ code: 'invalid_request' }),
      );
    try {
      return { raw: match[1]!, claims: await deps.oauth.tokens.verify(match[1]!, resource) };
    } catch (err) {
      if (!(err instanceof InvalidTokenError)) throw err;
      throw new ApiError(
        'C0003',
        `${err.message}: this endpoint takes tokens issued for ${resource} (resource parameter)`,
        'Authorization',
        challenge({ code: 'invalid_token', description: err.message }),
      );
    }
  }

  return {
    routes: async (scope) => {
      scope.get('/.well-known/oauth-protected-resource/mcp', { schema: { hide: true } }, async (_request, reply) => {
        reply.header('Cache-Control', 'public, max-age=3600');
        return {
          resource,
          authorization_servers: [issuer],
          scopes_supported: userScopes,
          bearer_methods_supported: ['header'],
          resource_name: 'Open platform MCP server',
          resource_documentation: `${infra.config.publicBaseUrl}/docs`,
        };
      });

      scope.post(
        '/mcp',
        { schema: { hide: true }, errorHandler: rpcErrorHandler(infra.clock) },
        async (request, reply) => {
          // The transport's rule against DNS rebinding: a page of another origin never reaches the tools, whatever it sends.
          const origin = request.headers.origin;
          if (origin !== undefined && !origins.has(origin)) {
            throw new ApiError(
              'C0004',
              `Calls from the web origin ${origin.slice(0, 200)} are refused here: only the service's own origin and its CORS origins may call /mcp from a browser`,
              'Origin',
            );
          }
          const refused = endpoint.refusal(request.body);
          if (refused) throw refused;
          const [key, token] = await Promise.all([appKeyOf(request), tokenOf(request)]);
          // A request with no token gets a challenge without an error (RFC 6750 3.1) naming every scope the user tools
          // use, so that a host signs in once for all of them; a token short of a tool's scope gets the union of what it
          // holds and what the tool needs, so that signing in again loses nothing it had.
          const everyUserScope = userScopes.join(' ');
          if (!key && !token) {
            throw new ApiError(
              'C0001',
              'Send the app key in X-SVC-API-Key for the public tools, or an access token issued for this endpoint for the tools that act for a user',
              'X-SVC-API-Key',
              challenge({ scope: everyUserScope }),
            );
          }
          const tool = endpoint.toolCalled(request.body);
          if (tool?.scope && !token) {
            throw new ApiError(
              'C0003',
              `${tool.name} acts for a user: it needs an access token issued for ${resource} with the scope "${tool.scope}"`,
              'Authorization',
              challenge({ scope: everyUserScope }),
            );
          }
          if (tool?.scope && token && !hasScope(token.claims.scopes, tool.scope)) {
            const wanted = [...new Set([...token.claims.scopes, tool.scope])].join(' ');
            throw new ApiError(
              'C0011',
              `The access token lacks the scope "${tool.scope}"`,
              'scope',
              challenge({ code: 'insufficient_scope', scope: wanted }),
            );
          }
          // A tool call the API answers is counted there, once, against the app (or the token's client). Every other
          // message (initialize, tools/list, ping, notifications, a tool the API does not count) is counted here.
          const subject = key ? `app:${key.appId}` : await callerOfToken(token!.claims);
          const countedHere = !tool?.path({}).startsWith('/api/v1/');
          const operation = `mcp ${tool ? tool.name : McpEndpoint.methodOf(request.body)}`;
          const started = performance.now();
          const record = (status: number, code: string | null) => {
            app.usage.count(subject, operation, status);
            app.requestLog.record(subject, {
              at: infra.clock(),
              operation,
              status,
              code,
              durationMs: Math.round((performance.now() - started) * 10) / 10,
              requestId: request.id,
            });
          };
          if (countedHere) {
            // A refusal for the spent limit is in usage as the API's 429s are: counted apart from what was served.
            await app.chargeGlobal(subject, reply).catch((err: unknown) => {
              record(429, 'C0010');
              throw err;
            });
          }
          // With only a token, the public tools run as the token's client's app (its limits, usage and request log), or
          // as the token's user when the client has none: an agent that sends no header reaches every tool.
          const forward: Forward = {
            common: key
              ? { 'x-svc-api-key': key.key }
              : { [INTERNAL_HEADER]: internalSecret, [INTERNAL_CALLER_HEADER]: subject },
            user: {},
          };
          const language = request.headers['accept-language'];
          if (language) forward.common['accept-language'] = language;
          if (token) forward.user = { authorization: `Bearer ${token.raw}`, [INTERNAL_HEADER]: internalSecret };
          const answer = await endpoint.handle(webRequest(request), request.body, forward);
          if (countedHere) record(answer.status, null);
          reply.code(answer.status);
          answer.headers.forEach((value, name) => {
            if (name !== 'content-length') reply.header(name, value);
          });
          return reply.send(answer.body);
        },
      );
    },
  };
}
