import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { AppKeyService, AuthenticatedApp } from './app-key-service.js';
import { ApiError } from '../../shared/api-error.js';
import { addRouteHook } from '../../shared/route-hooks.js';
import { presentedAppKey } from '../../net/drop-in-aliases.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `apiKey`: the route needs a valid app key in X-SVC-API-Key (or one of its aliases, net/drop-in-aliases.ts). */
    auth?: 'apiKey';
  }
  interface FastifyRequest {
    /** The app that called, once authenticated. */
    apiApp: AuthenticatedApp | null;
    /**
     * An MCP tool call for an agent that sent only OAuth and whose client has no app: whom it counts for, the user the
     * token acts for (`user:<id>`, shared/caller.ts).
     */
    agentCaller: string | null;
  }
}

/**
 * The header of an MCP tool call made inside the process for an agent that sent only OAuth: whom it runs as, `app:<id>`
 * (the token's client belongs to that app) or `user:<id>` (it belongs to none: every client without an app a user
 * authorized counts as that user, so registering more clients gives no more calls). Taken only beside the process's
 * own secret (`internal`), which no request from outside can know.
 */
export const INTERNAL_CALLER_HEADER = 'x-svc-internal-caller';
const CALLER = /^(?:app:(\d{1,15})|(user:\d{1,15}))$/;

/**
 * Authenticates app keys, first thing on the routes that declare `config.auth: 'apiKey'`. A key the
 * service has seen recently is answered from memory without waiting for anything.
 */
export const appKeyAuthPlugin = fp(
  async (
    app,
    opts: {
      appKeys: AppKeyService;
      /** Browser origins every key may be used from: CORS_ORIGINS and the service's own. */
      origins: string[];
      /** The header and the secret that mark the MCP endpoint's calls inside the process (modules/oauth/bearer-auth.ts). */
      internal: { header: string; secret: string };
    },
  ) => {
    const everyKey = new Set(opts.origins);
    const secret = Buffer.from(opts.internal.secret);
    app.decorateRequest('apiApp', null);
    app.decorateRequest('agentCaller', null);

    /** The caller an in-process MCP call names, when it carries the process's secret; else null. */
    const internalCaller = (request: FastifyRequest): RegExpExecArray | null => {
      const given = request.headers[opts.internal.header];
      const caller = request.headers[INTERNAL_CALLER_HEADER];
      if (typeof given !== 'string' || typeof caller !== 'string' || given.length !== opts.internal.secret.length)
        return null;
      return timingSafeEqual(Buffer.from(given), secret) ? CALLER.exec(caller) : null;
    };

    const authenticate = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const { key, conflict, header } = presentedAppKey(request.headers);
      if (conflict) {
        done(
          new ApiError(
            'C0001',
            `Two different app keys were sent, in ${conflict.join(' and ')}: send one key, in X-SVC-API-Key`,
            conflict[1]!,
          ),
        );
        return;
      }
      if (!key) {
        // An agent that sent only OAuth: its token's client's app, or its client, as the MCP endpoint checked it.
        const caller = internalCaller(request);
        if (caller?.[1] !== undefined)
          request.apiApp = { appId: Number(caller[1]), keyId: 0, expiresAt: null, webOrigins: [] };
        else if (caller?.[2] !== undefined) request.agentCaller = caller[2];
        if (caller) return done();
        done(new ApiError('C0001', 'The X-SVC-API-Key header is required for this operation', 'X-SVC-API-Key'));
        return;
      }
      const accept = (authenticated: AuthenticatedApp | null) => {
        // Never echo the key: it may be a real key of someone else's pasted in the wrong place.
        if (!authenticated)
          return done(new ApiError('C0001', `The app key in ${header!} is not valid or has been revoked`, header!));
        // From a browser (an Origin header) the key works only on its app's web origins, or the service-wide ones: a
        // key copied out of one site's code is refused on another's. Servers send no Origin and are not affected.
        const origin = request.headers.origin;
        if (origin !== undefined && !everyKey.has(origin) && !authenticated.webOrigins.includes(origin)) {
          return done(
            new ApiError(
              'C0004',
              `This app's key may not be used from the web origin ${origin.slice(0, 200)}: add the origin to the app's web origins in the developer console`,
              'Origin',
            ),
          );
        }
        request.apiApp = authenticated;
        done();
      };
      const known = opts.appKeys.known(key);
      if (known !== undefined) accept(known);
      else opts.appKeys.authenticate(key).then(accept, done);
    };

    app.addHook('onRoute', (route) => {
      if (route.config?.auth === 'apiKey') addRouteHook(route, 'onRequest', authenticate);
    });
  },
  { name: 'app-key-auth' },
);
