import cors, { type AsyncOriginFunction, type OriginFunction } from '@fastify/cors';
import fp from 'fastify-plugin';
import { APP_KEY_HEADERS } from '../net/drop-in-aliases.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route-level CORS options of @fastify/cors (merged over the global ones). */
    cors?: { origin: OriginFunction | AsyncOriginFunction };
  }
}

const PUBLIC_CLIENT_ENDPOINTS = new Set(['/oauth/token', '/oauth/revoke']);

/**
 * CORS (docs/decisions.md Browsers): the origins of CORS_ORIGINS everywhere (none by default), and the web origins
 * apps set in the console (the app-key check then holds each key to its own app's origins: app-key-auth.ts);
 * the token and revoke endpoints also for the origins of registered public clients' redirect URIs, so a
 * browser app can finish its own flow. Preflights are answered here, before any key, token or limit.
 * The options are built once (a per-request options delegator cost a tenth of a read's time); the two
 * OAuth endpoints, and their preflights, carry their own origin check in their route config.
 */
/** Origins read from elsewhere and kept `ttlMs`: `fresh()` is the kept set while it holds (else null), `get()` reads again when it must. */
function keptOrigins(load: () => Promise<string[]>, ttlMs: number, clock: () => number) {
  let kept = new Set<string>();
  let at = -Infinity;
  const fresh = () => (clock() - at < ttlMs ? kept : null);
  return {
    fresh,
    async get(): Promise<Set<string>> {
      const held = fresh();
      if (held) return held;
      kept = new Set(await load());
      at = clock();
      return kept;
    },
  };
}

export const corsPlugin = fp(
  async (
    app,
    opts: {
      origins: string[];
      /** The redirect URIs of the registered public clients (the OAuth area's). */
      publicClientRedirectUris: () => Promise<string[]>;
      /** The web origins apps set in the console (the accounts area's): their keys may be used from them. */
      appWebOrigins: () => Promise<string[]>;
      clock: () => number;
    },
  ) => {
    const configured = new Set(opts.origins);
    // The apps' origins, re-read at most every 10 s (a preflight's answer is cached by browsers for 10 minutes anyway).
    const apps = keptOrigins(opts.appWebOrigins, 10_000, opts.clock);
    const publicClients = keptOrigins(
      async () => (await opts.publicClientRedirectUris()).map((u) => new URL(u).origin),
      60_000,
      opts.clock,
    );
    // Synchronous for every request without an Origin or from a configured one; a promise only to re-read the apps' origins.
    const configuredOrApps: OriginFunction = (origin, callback) => {
      if (origin === undefined || configured.has(origin)) return callback(null, origin ?? false);
      const kept = apps.fresh();
      if (kept) return callback(null, kept.has(origin) ? origin : false);
      apps.get().then(
        (set) => callback(null, set.has(origin) ? origin : false),
        (err: Error) => callback(err, false),
      );
    };
    const withPublicClients: AsyncOriginFunction = async (origin) =>
      origin !== undefined &&
      (configured.has(origin) || (await publicClients.get()).has(origin) || (await apps.get()).has(origin))
        ? origin
        : false;

    app.addHook('onRoute', (route) => {
      if (PUBLIC_CLIENT_ENDPOINTS.has(route.url))
        route.config = { ...(route.config ?? {}), cors: { origin: withPublicClients } };
    });
    await app.register(cors, {
      origin: configuredOrApps,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        ...APP_KEY_HEADERS,
        'Accept-Language',
        'Idempotency-Key',
        'If-None-Match',
      ],
      exposedHeaders: [
        'X-SVC-RateLimit-Remaining',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'X-SVC-RateLimit-Scope',
        'X-SVC-RateLimit-Scope-Remaining',
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'ETag',
        'Location',
        'X-Request-Id',
        'Idempotency-Replayed',
        'WWW-Authenticate',
      ],
      maxAge: 600,
    });
    // Preflights of the two endpoints match these routes (not the plugin's catch-all), so they get the same check;
    // the hook answers an allowed one, and a refused one ends here as the catch-all would end it.
    for (const url of PUBLIC_CLIENT_ENDPOINTS) {
      app.options(url, { schema: { hide: true } }, (_request, reply) => {
        reply.callNotFound();
      });
    }
  },
  { name: 'cors' },
);
