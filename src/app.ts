import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { consoleArea } from './modules/console/index.js';
import type { Database } from './db/database.js';
import { demoCallbackRoutes, type DemoCallbackOptions } from './demo/demo-callback-routes.js';
import { openInfrastructure, type Area } from './infrastructure.js';
import { webhooksArea } from './modules/webhooks/index.js';
import { mediaRoutes } from './media/media-routes.js';
import type { MediaStore } from './media/media-store.js';
import { accountsArea } from './modules/accounts/index.js';
import { appsArea } from './modules/apps/index.js';
import { codesArea } from './modules/codes/index.js';
import { companiesArea } from './modules/companies/index.js';
import { profilesArea } from './modules/profiles/index.js';
import { changesArea } from './modules/changes/index.js';
import { eventsArea } from './modules/events/index.js';
import { healthArea } from './modules/health/index.js';
import { jobsArea } from './modules/jobs/index.js';
import { mcpArea } from './modules/mcp/index.js';
import { meArea } from './modules/me/index.js';
import { oauthArea } from './modules/oauth/index.js';
import { postsArea } from './modules/posts/index.js';
import { siteArea } from './modules/site/index.js';
import { multipartPlugin } from './plugins/multipart.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { registerRequestPipeline, searchIndexes } from './request-pipeline.js';
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
 * each building its own repositories and services from it and from the areas it names), the request pipeline's
 * cross-cutting plugins in their order (src/request-pipeline.ts), then each area's routes. The returned app is not yet listening or ready, so callers may still add
 * routes (tests do).
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const clock = options.clock ?? Date.now;

  const { app, isClosing } = createServer(config, clock, options.logger);
  const infra = await openInfrastructure(app, {
    config,
    database,
    clock,
    mediaStore: options.mediaStore,
    rateLimitStore: options.rateLimitStore,
  });
  const accounts = accountsArea(infra);
  const catalogs = await codesArea(infra);
  const oauth = await oauthArea(infra, { accounts });
  // The search indexes get ready side by side (each from its saved copy, or from the tables).
  const [posts, jobs, events, profiles] = await Promise.all([
    postsArea(app, infra, { accounts }),
    jobsArea(app, infra, { accounts, codes: catalogs.codes }),
    eventsArea(app, infra, { accounts }),
    profilesArea(app, infra, { accounts }),
  ]);
  // Companies count their hiring jobs on the job index, ready above.
  const companies = await companiesArea(app, infra, { accounts, codes: catalogs.codes, jobs: app.jobIndex });
  app.log.info(
    {
      bitmaps: bitmapLibrary,
      posts: app.postIndex.stats(),
      jobs: app.jobIndex.stats(),
      events: app.eventIndex.stats(),
      companies: app.companyIndex.stats(),
      profiles: app.profileIndex.stats(),
    },
    'search indexes ready',
  );
  const webhookEndpoints = webhooksArea(app, infra, oauth.keyEncryptionKey);

  await registerRequestPipeline(app, infra, { accounts, apps: appsArea(infra), oauth });

  // The areas' routes, in this order (the OpenAPI document lists paths in it); the writes that take uploads sit
  // in one scope with multipart parsing (and its per-request hooks) for them alone.
  const media: Area = {
    routes: async (scope) => {
      await scope.register(mediaRoutes, { store: infra.mediaStore });
    },
  };
  const demo: Area = {
    routes:
      options.demoCallback &&
      (async (scope) => {
        await scope.register(demoCallbackRoutes, { publicBaseUrl: config.publicBaseUrl, ...options.demoCallback! });
      }),
  };
  for (const area of [
    healthArea(infra, isClosing, () =>
      searchIndexes(app).map(({ index, served }) => ({ index, failingReads: served.failingReads })),
    ),
    posts,
    jobs,
    companies,
    profiles,
    meArea(infra, { accounts }),
    media,
    events,
    changesArea(infra),
  ])
    if (area.routes) await app.register(area.routes);
  await app.register(async (scope) => {
    await scope.register(multipartPlugin, { maxImageBytes: config.media.maxImageBytes });
    for (const area of [posts, jobs, events, companies]) if (area.uploadRoutes) await scope.register(area.uploadRoutes);
  });
  for (const area of [
    catalogs,
    oauth,
    consoleArea(infra, { accounts, oauth, webhookEndpoints }),
    mcpArea(app, infra, { accounts, oauth }),
    siteArea(infra),
    demo,
  ])
    if (area.routes) await app.register(area.routes);

  return app;
}
