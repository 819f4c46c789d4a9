import cors from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OAuthRepository } from '../modules/oauth/oauth-repository.js';

const PUBLIC_CLIENT_ENDPOINTS = new Set(['/oauth/token', '/oauth/revoke']);

/**
 * CORS (DECISIONS.md Browsers): the origins of CORS_ORIGINS everywhere (none by default), and the
 * token and revoke endpoints also for the origins of registered public clients' redirect URIs, so a
 * browser app can finish its own flow. Preflights are answered here, before any key, token or limit.
 */
export const corsPlugin = fp(async (app, opts: { origins: string[]; oauth: OAuthRepository; clock: () => number }) => {
  const configured = new Set(opts.origins);
  let publicOrigins = new Set<string>();
  let loadedAt = -Infinity;
  const publicClientOrigins = async (): Promise<Set<string>> => {
    if (opts.clock() - loadedAt > 60_000) {
      const clients = await opts.oauth.listClients();
      publicOrigins = new Set(clients.filter((c) => c.secretHash === null).flatMap((c) => c.redirectUris.map((u) => new URL(u).origin)));
      loadedAt = opts.clock();
    }
    return publicOrigins;
  };

  await app.register(cors, {
    delegator: async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      const path = request.url.split('?')[0] ?? '';
      const allowed = origin !== undefined
        && (configured.has(origin) || (PUBLIC_CLIENT_ENDPOINTS.has(path) && (await publicClientOrigins()).has(origin)));
      return {
        origin: allowed ? origin : false,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Authorization', 'Content-Type', 'X-SVC-API-Key', 'Accept-Language', 'Idempotency-Key', 'If-None-Match'],
        exposedHeaders: ['X-SVC-RateLimit-Remaining', 'X-SVC-RateLimit-Scope', 'X-SVC-RateLimit-Scope-Remaining', 'RateLimit', 'RateLimit-Policy',
          'Retry-After', 'ETag', 'Location', 'X-Request-Id', 'Idempotency-Replayed', 'WWW-Authenticate'],
        maxAge: 600,
      };
    },
  });
}, { name: 'cors' });
