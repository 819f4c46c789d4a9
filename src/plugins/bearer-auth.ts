import fp from 'fastify-plugin';
import { hasScope } from '../modules/oauth/scopes.js';
import { InvalidTokenError, type AccessTokenClaims, type TokenService } from '../modules/oauth/token-service.js';
import { ApiError } from '../shared/api-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a Bearer access token with this scope. */
    bearerScope?: string;
    /** The route accepts a Bearer token but does not need one (post reads make `owned` meaningful). */
    optionalBearer?: boolean;
  }
  interface FastifyRequest {
    /** The verified access token, when one was sent. */
    token: AccessTokenClaims | null;
  }
}

const REALM = 'realm="svc"';

/** Reads `Authorization: Bearer …`; null when absent, ApiError C0003 when it is not a Bearer credential. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!match) {
    throw new ApiError('C0003', 'The Authorization header must be "Bearer <access token>"', 'Authorization', {
      'WWW-Authenticate': `Bearer ${REALM}, error="invalid_request", error_description="malformed Authorization header"`,
    });
  }
  return match[1]!;
}

/**
 * Bearer authentication (RFC 6750) for routes that declare `config.bearerScope` or `config.optionalBearer`:
 * 401 C0003 for a missing or invalid token, 403 C0004 for a token without the route's scope, each with
 * the matching WWW-Authenticate challenge.
 */
export const bearerAuthPlugin = fp(async (app, opts: { tokens: TokenService }) => {
  app.decorateRequest('token', null);
  app.addHook('onRequest', async (request) => {
    const { bearerScope, optionalBearer } = request.routeOptions.config;
    if (!bearerScope && !optionalBearer) return;
    const token = bearerToken(request.headers.authorization);
    if (token === null) {
      if (!bearerScope) return;
      throw new ApiError('C0003', 'A Bearer access token is required for this operation', 'Authorization', { 'WWW-Authenticate': `Bearer ${REALM}` });
    }
    try {
      request.token = await opts.tokens.verify(token);
    } catch (err) {
      if (!(err instanceof InvalidTokenError)) throw err;
      throw new ApiError('C0003', err.message, 'Authorization', {
        'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${err.message.replace(/"/g, "'")}"`,
      });
    }
    if (bearerScope && !hasScope(request.token.scopes, bearerScope)) {
      throw new ApiError('C0004', `The access token lacks the scope "${bearerScope}"`, 'scope', {
        'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${bearerScope}"`,
      });
    }
  });
}, { name: 'bearer-auth' });
