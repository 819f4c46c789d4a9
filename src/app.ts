import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { consoleArea } from './console/index.js';
import type { Database } from './db/database.js';
import { demoCallbackRoutes, type DemoCallbackOptions } from './demo/demo-callback-routes.js';
import { openInfrastructure, type Area } from './infrastructure.js';
import { startWebhooks } from './webhooks/index.js';
import { webhookStats } from './webhooks/webhook-stats.js';
import { mediaRoutes } from './media/media-routes.js';
import type { MediaStore } from './media/media-store.js';
import { accountsArea } from './modules/accounts/index.js';
import { appKeyAuthPlugin } from './modules/accounts/app-key-auth.js';
import { usageCountPlugin } from './modules/apps/usage-count.js';
import { codesArea } from './modules/codes/index.js';
import { changesArea } from './modules/changes/index.js';
import { eventsArea } from './modules/events/index.js';
import { healthArea } from './modules/health/index.js';
import { jobsArea } from './modules/jobs/index.js';
import { meArea } from './modules/me/index.js';
import { bearerAuthPlugin } from './modules/oauth/bearer-auth.js';
import { oauthArea } from './modules/oauth/index.js';
import { postsArea } from './modules/posts/index.js';
import { bodyParsersPlugin } from './plugins/body-parsers.js';
import { compressionPlugin } from './plugins/compression.js';
import { conditionalGetPlugin } from './plugins/conditional-get.js';
import { corsPlugin } from './plugins/cors.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { languagePlugin } from './plugins/language.js';
import { metricsPlugin } from './plugins/metrics.js';
import { multipartPlugin } from './plugins/multipart.js';
import { openApiPlugin } from './plugins/openapi.js';
import { pathIntegersPlugin } from './plugins/path-integers.js';
import { queryNormalizationPlugin } from './plugins/query-normalization.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { readScopePlugin } from './plugins/read-scope.js';
import { representationCachePlugin } from './plugins/representation-cache.js';
import { requestLogPlugin } from './plugins/request-log.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { bitmapLibrary } from './search/bitmaps.js';
import { createServer } from './server-instance.js';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Current time in epoch milliseconds; tests pass a controllable clock. */
  clock?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** The media store; by default chosen by MEDIA_STORE. Tests pass one that fails on purpose. */
  mediaStore?: MediaStore;
  /** The rate-limit store; by default chosen by REDIS_URL. The benchmark passes one that admits everything. */
  rateLimitStore?: RateLimitStore;
  /** Serve the demo client's /callback page (npm run demo only). */
  demoCallback?: Omit<DemoCallbackOptions, 'publicBaseUrl'>;
}

export type App = FastifyInstance;

/**
 * Assembles the service: the shared infrastructure (src/infrastructure.ts), the areas (src/modules/<area>/index.ts,
 * each building its own repositories and services from it and from the areas it names), the cross-cutting plugins
 * (security headers, CORS, errors, language, query normalization, authentication, limits, response caching,
 * OpenAPI), then each area's routes. The returned app is not yet listening or ready, so callers may still add
 * routes (tests do).
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const clock = options.clock ?? Date.now;

  const { app, isClosing } = createServer(config, clock, options.logger);
  const infra = await openInfrastructure(app, { config, database, clock, mediaStore: options.mediaStore, rateLimitStore: options.rateLimitStore });
  const accounts = accountsArea(infra);
  const catalogs = await codesArea(infra);
  const oauth = await oauthArea(infra, { accounts });
  // The two search indexes get ready side by side (each from its saved copy, or from the tables).
  const [posts, jobs] = await Promise.all([postsArea(app, infra, { accounts }), jobsArea(app, infra, { accounts, codes: catalogs.codes })]);
  app.log.info({ bitmaps: bitmapLibrary, posts: app.postIndex.stats(), jobs: app.jobIndex.stats() }, 'search indexes ready');
  const events = eventsArea(infra, { accounts });
  const webhookEndpoints = startWebhooks(app, infra, oauth.keyEncryptionKey);

  // Cross-cutting plugins, in the order their hooks run. Security headers everywhere; the HTML pages set their own
  // Content-Security-Policy, and the interactive reference at /docs needs inline scripts, so no global CSP.
  await app.register(securityHeadersPlugin, { hsts: config.publicBaseUrl.startsWith('https://') });
  await app.register(corsPlugin, { origins: config.corsOrigins, publicClientRedirectUris: oauth.publicClientRedirectUris, appWebOrigins: () => accounts.accounts.appWebOrigins(), clock });
  await app.register(bodyParsersPlugin);
  await app.register(errorHandlerPlugin, { clock });
  await app.register(requestLogPlugin);
  if (config.metrics.enabled) {
    await app.register(metricsPlugin, { token: config.metrics.token, version: infra.version, sources: {
      searchIndexes: () => [{ index: 'posts', ...app.postIndex.stats() }, { index: 'jobs', ...app.jobIndex.stats() }],
      pools: () => database.pools(),
      webhooks: { onAttempt: (listener) => app.webhooks.onAttempt(listener), stats: () => webhookStats(database.background, clock()) },
    } });
  }
  await app.register(usageCountPlugin, { usage: accounts.usage, requestLog: accounts.requestLog, clock });
  await app.register(readScopePlugin);
  await app.register(languagePlugin);
  await app.register(queryNormalizationPlugin);
  await app.register(pathIntegersPlugin);
  await app.register(appKeyAuthPlugin, { appKeys: accounts.appKeys, origins: [...config.corsOrigins, new URL(config.publicBaseUrl).origin] });
  await app.register(bearerAuthPlugin, { tokens: oauth.tokens });
  await app.register(rateLimitPlugin, { store: infra.rateLimits, limits: config.rateLimits, clock });
  // The code catalogs change only by migration, that is with a restart: their version never moves.
  await app.register(representationCachePlugin, { versions: { ...infra.versions, codes: { read: async () => 0 } }, clock });
  await app.register(conditionalGetPlugin, { store: infra.rateLimits });
  // Last of the onSend hooks: it compresses what the representation cache and conditional GET produced.
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, { publicBaseUrl: config.publicBaseUrl, scopes: oauth.scopes, version: infra.version });

  // The areas' routes, in this order (the OpenAPI document lists paths in it); the writes that take uploads sit
  // in one scope with multipart parsing (and its per-request hooks) for them alone.
  const media: Area = { routes: async (scope) => { await scope.register(mediaRoutes, { store: infra.mediaStore }); } };
  const demo: Area = { routes: options.demoCallback && (async (scope) => { await scope.register(demoCallbackRoutes, { publicBaseUrl: config.publicBaseUrl, ...options.demoCallback! }); }) };
  for (const area of [healthArea(infra, isClosing), posts, jobs, meArea(infra, { accounts }), media, events, changesArea(infra)]) if (area.routes) await app.register(area.routes);
  await app.register(async (scope) => {
    await scope.register(multipartPlugin, { maxImageBytes: config.media.maxImageBytes });
    for (const area of [posts, jobs, events]) if (area.uploadRoutes) await scope.register(area.uploadRoutes);
  });
  for (const area of [catalogs, oauth, consoleArea(infra, { accounts, oauth, webhookEndpoints }), demo]) if (area.routes) await app.register(area.routes);

  return app;
}
