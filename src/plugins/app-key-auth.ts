import fp from 'fastify-plugin';
import type { AppKeyService, AuthenticatedApp } from '../modules/accounts/app-key-service.js';
import { ApiError } from '../shared/api-error.js';

export const API_KEY_HEADER = 'x-svc-api-key';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `apiKey`: the route needs a valid app key in X-SVC-API-Key. */
    auth?: 'apiKey';
  }
  interface FastifyRequest {
    /** The app that called, once authenticated. */
    apiApp: AuthenticatedApp | null;
  }
}

/** Authenticates app keys before anything else runs for routes that declare `config.auth: 'apiKey'`. */
export const appKeyAuthPlugin = fp(async (app, opts: { appKeys: AppKeyService }) => {
  app.decorateRequest('apiApp', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth !== 'apiKey') return;
    const header = request.headers[API_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) {
      throw new ApiError('C0001', 'The X-SVC-API-Key header is required for this operation', 'X-SVC-API-Key');
    }
    const authenticated = await opts.appKeys.authenticate(key);
    if (!authenticated) {
      // Never echo the key: it may be a real key of someone else's pasted in the wrong place.
      throw new ApiError('C0001', 'The app key in X-SVC-API-Key is not valid or has been revoked', 'X-SVC-API-Key');
    }
    request.apiApp = authenticated;
  });
}, { name: 'app-key-auth' });
