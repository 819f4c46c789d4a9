import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { hasScope } from './scopes.js';
import type { TokenCallers } from './token-caller.js';
import { InvalidTokenError, type AccessTokenClaims, type TokenService } from './token-service.js';
import { ApiError } from '../../shared/api-error.js';
import { addRouteHook } from '../../shared/route-hooks.js';

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
    /** Whom the token's calls count for (token-caller.ts), once it is verified. */
    tokenCaller: string | null;
  }
}

const REALM = 'realm="svc"';

/** The header that marks a call the MCP endpoint makes inside the process (its value: the process's secret). */
export const INTERNAL_HEADER = 'x-svc-internal-call';

/** `Authorization: Bearer <token>` (RFC 6750 2.1: the token68 syntax), the token in group 1. */
export const BEARER_CREDENTIAL = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** Reads `Authorization: Bearer …`; null when absent, ApiError C0003 when it is not a Bearer credential. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER_CREDENTIAL.exec(header.trim());
  if (!match) {
    throw new ApiError('C0003', 'The Authorization header must be "Bearer <access token>"', 'Authorization', {
      'WWW-Authenticate': `Bearer ${REALM}, error="invalid_request", error_description="malformed Authorization header"`,
    });
  }
  return match[1]!;
}

/**
 * Bearer authentication (RFC 6750) for routes that declare `config.bearerScope` or `config.optionalBearer`:
 * 401 C0003 for a missing or invalid token, 403 C0011 for a token without the route's scope, each with
 * the matching WWW-Authenticate challenge.
 */
export const bearerAuthPlugin = fp(
  async (
    app,
    opts: {
      tokens: TokenService;
      callers: TokenCallers;
      /**
       * The MCP endpoint's calls inside the process (src/modules/mcp/): they carry `secret` in INTERNAL_HEADER and a token
       * for `audience`, which the request is held to instead of the API's. No request from outside can know the secret.
       */
      internal: { secret: string; audience: string };
    },
  ) => {
    app.decorateRequest('token', null);
    app.decorateRequest('tokenCaller', null);
    const secret = Buffer.from(opts.internal.secret);

    /** The audience the request's token must have: the MCP endpoint's for its own calls, else the API's. */
    const audienceFor = (request: FastifyRequest): string | undefined => {
      const given = request.headers[INTERNAL_HEADER];
      if (typeof given !== 'string' || given.length !== opts.internal.secret.length) return undefined;
      return timingSafeEqual(Buffer.from(given), secret) ? opts.internal.audience : undefined;
    };

    const verify = async (request: FastifyRequest, token: string, bearerScope: string | undefined) => {
      try {
        request.token = await opts.tokens.verify(token, audienceFor(request));
      } catch (err) {
        if (!(err instanceof InvalidTokenError)) throw err;
        throw new ApiError('C0003', err.message, 'Authorization', {
          'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${err.message.replace(/"/g, "'")}"`,
        });
      }
      request.tokenCaller = await opts.callers.of(request.token);
      if (bearerScope && !hasScope(request.token.scopes, bearerScope)) {
        throw new ApiError('C0011', `The access token lacks the scope "${bearerScope}"`, 'scope', {
          'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${bearerScope}"`,
        });
      }
    };

    app.addHook('onRoute', (route) => {
      const { bearerScope, optionalBearer } = route.config ?? {};
      if (!bearerScope && !optionalBearer) return;
      addRouteHook(
        route,
        'onRequest',
        (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
          let token: string | null;
          try {
            token = bearerToken(request.headers.authorization);
          } catch (err) {
            return done(err as ApiError);
          }
          if (token === null) {
            // Without a token an optional-Bearer route goes on at once (a public read).
            return done(
              bearerScope
                ? new ApiError('C0003', 'A Bearer access token is required for this operation', 'Authorization', {
                    'WWW-Authenticate': `Bearer ${REALM}`,
                  })
                : undefined,
            );
          }
          verify(request, token, bearerScope).then(() => done(), done);
        },
      );
    });
  },
  { name: 'bearer-auth' },
);
