import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { DataVersion } from './cache/data-version.js';
import { demoCallbackRoutes, type DemoCallbackOptions } from './demo/demo-callback-routes.js';
import { AccountsRepository } from './modules/accounts/accounts-repository.js';
import { AppKeyService } from './modules/accounts/app-key-service.js';
import { WebSessions } from './modules/web/web-session.js';
import { consoleRoutes } from './console/console-routes.js';
import { CodeRepository } from './modules/codes/code-repository.js';
import { codeRoutes } from './modules/codes/code-routes.js';
import { CodeService } from './modules/codes/code-service.js';
import { EventRepository } from './modules/events/event-repository.js';
import { eventRoutes } from './modules/events/event-routes.js';
import { EventService } from './modules/events/event-service.js';
import { eventSubRoutes } from './modules/events/event-sub-routes.js';
import { EventWriteRepository } from './modules/events/event-write-repository.js';
import { eventWriteRoutes } from './modules/events/event-write-routes.js';
import { EventSubService } from './modules/events/event-sub-service.js';
import { EventWriteRules } from './modules/events/event-write-rules.js';
import { EventWriteService } from './modules/events/event-write-service.js';
import { healthRoutes } from './modules/health/health-routes.js';
import { DecodeGate } from './media/decode-gate.js';
import { ImageUploads } from './media/image-uploads.js';
import { mediaRoutes } from './media/media-routes.js';
import { mediaStoreFor } from './media/media-store-factory.js';
import type { MediaStore } from './media/media-store.js';
import { PermissionService } from './modules/accounts/permission-service.js';
import { JobRepository } from './modules/jobs/job-repository.js';
import { JobWriteRepository } from './modules/jobs/job-write-repository.js';
import { jobWriteRoutes } from './modules/jobs/job-write-routes.js';
import { JobWriteService } from './modules/jobs/job-write-service.js';
import { meRoutes } from './modules/me/me-routes.js';
import { jobRoutes } from './modules/jobs/job-routes.js';
import { JobService } from './modules/jobs/job-service.js';
import { authorizeRoutes } from './modules/oauth/authorize-routes.js';
import { discoveryRoutes } from './modules/oauth/discovery-routes.js';
import { LoginThrottle } from './modules/oauth/login-throttle.js';
import { OAuthRepository } from './modules/oauth/oauth-repository.js';
import { keyEncryptionKey, SigningKeys } from './modules/oauth/signing-keys.js';
import { TokenService } from './modules/oauth/token-service.js';
import { tokenRoutes } from './modules/oauth/token-routes.js';
import { userinfoRoutes } from './modules/oauth/userinfo-routes.js';
import { OgFetcher } from './modules/posts/og-fetcher.js';
import { PostRepository } from './modules/posts/post-repository.js';
import { JobIndex, jobIndexCopy } from './search/job-index.js';
import { PostIndex, postIndexCopy } from './search/post-index.js';
import { startPruning } from './search/search-changes.js';
import { PostWriteRepository } from './modules/posts/post-write-repository.js';
import { postWriteRoutes } from './modules/posts/post-write-routes.js';
import { PostWriteService } from './modules/posts/post-write-service.js';
import { postRoutes } from './modules/posts/post-routes.js';
import { PostService } from './modules/posts/post-service.js';
import { appKeyAuthPlugin } from './plugins/app-key-auth.js';
import { bearerAuthPlugin } from './plugins/bearer-auth.js';
import { conditionalGetPlugin } from './plugins/conditional-get.js';
import { corsPlugin } from './plugins/cors.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { compressionPlugin } from './plugins/compression.js';
import { requestLogPlugin } from './plugins/request-log.js';
import { usageCountPlugin } from './plugins/usage-count.js';
import { UsageCounter } from './modules/apps/usage.js';
import { representationCachePlugin } from './plugins/representation-cache.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { rateLimitStoreFor } from './rate-limit/rate-limit-store-factory.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { MEDIA_SWEEP_GRACE_MS, MediaSweep } from './media/media-sweep.js';
import { connectionLimits } from './net/connection-limits.js';
import { pathIntegersPlugin } from './plugins/path-integers.js';
import { bodyParsersPlugin } from './plugins/body-parsers.js';
import { errorHandlerPlugin, sendError } from './plugins/error-handler.js';
import { ApiError } from './shared/api-error.js';
import { loggerOptions } from './shared/log-options.js';
import { readScopePlugin } from './plugins/read-scope.js';
import { languagePlugin } from './plugins/language.js';
import { multipartPlugin } from './plugins/multipart.js';
import { openApiPlugin } from './plugins/openapi.js';
import { queryNormalizationPlugin } from './plugins/query-normalization.js';
import { Idempotency } from './shared/idempotency.js';
import { Links } from './shared/links.js';

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

declare module 'fastify' {
  interface FastifyInstance {
    /** Removes uploads nothing refers to; its first run starts with the app (src/media/media-sweep.ts). */
    mediaSweep: MediaSweep;
    /** The post search index of this instance (src/search/post-index.ts). */
    postIndex: PostIndex;
    jobIndex: JobIndex;
  }
}

/** The `aud` of access tokens: this service's API (RFC 9068 resource indicator). */
export function apiAudience(config: Config): string {
  return `${config.publicBaseUrl}/api`;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Assembles the service: cross-cutting plugins first (security headers, CORS, errors, language, query
 * normalization, authentication, limits, response caching, OpenAPI), then one route module per area; the
 * upload routes sit in their own scope with multipart parsing. Services are wired once here and passed down.
 * The returned app is not yet listening or ready, so callers may still add routes (tests do).
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const clock = options.clock ?? Date.now;

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel, config.logFormat),
    // Accept a caller's request id only when it is short and plain, so it cannot forge log lines.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    // Path parameters up to the longest the spec allows (a company handle of 255), with room: a longer one is
    // then refused by the route's schema with the spec's body rather than by the router.
    routerOptions: { maxParamLength: 512 },
    // What the router refuses before any route runs (a malformed percent-escape, an over-long parameter) goes
    // out in the spec's ErrorResponse body too.
    frameworkErrors: (error, request, reply) => {
      const path = request.url.split('?')[0]!.slice(0, 200);
      void sendError(reply, new ApiError('C0002', `The request path is not valid (${error.code === 'FST_ERR_BAD_URL' ? 'a malformed percent-escape' : 'a path parameter longer than 512 characters'}): ${path}`, 'path'), clock());
    },
    return503OnClosing: true,
    // One line per request instead of two, with what an operator needs (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    ...connectionLimits(config.http, clock),
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.maxConnections = config.http.maxConnections;

  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  // A response finished during shutdown closes its connection, so the server is not kept open by
  // keep-alive clients until their idle timeout. (Hooks that never wait take `done`: no promise per request.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // U+0000 in the path or the query: PostgreSQL cannot store or compare it, so no engine sees it.
    const nul = request.url.indexOf('%00');
    if (nul < 0) return done();
    const query = request.url.indexOf('?');
    const inQuery = query >= 0 && nul > query;
    done(new ApiError(inQuery ? 'C0005' : 'C0002', `The ${inQuery ? 'query' : 'path'} must not contain the character U+0000 (%00)`, inQuery ? 'query' : 'path'));
  });

  const links = new Links(config.webBaseUrl, config.publicBaseUrl);
  const accounts = new AccountsRepository(database.db, clock);
  const appKeys = new AppKeyService(accounts, config.apiKeyCacheSeconds, clock);
  const codes = new CodeService(new CodeRepository(database.db));
  await codes.load();
  const versions = { posts: new DataVersion(database.reads, 'posts'), jobs: new DataVersion(database.reads, 'jobs') };
  const postIndex = new PostIndex(database, versions.posts, postIndexCopy(config.dataDir));
  const jobIndex = new JobIndex(database, versions.jobs, jobIndexCopy(config.dataDir));
  await Promise.all([postIndex.ready(), jobIndex.ready()]);
  app.decorate('postIndex', postIndex);
  app.decorate('jobIndex', jobIndex);
  const stopPruning = startPruning(database.db, clock, (err) => app.log.error({ err }, 'pruning the search change log failed'));
  app.addHook('onClose', async () => {
    stopPruning();
    await Promise.all([postIndex.close(), jobIndex.close()]);
  });
  const posts = new PostService(new PostRepository(database.reads, postIndex), accounts, links, config.serviceTimeZone, versions.posts);
  const jobReads = new JobRepository(database.db, database.reads, jobIndex);
  const jobs = new JobService(jobReads, accounts, codes, links, clock, versions.jobs);
  const permissions = new PermissionService(database.db);
  const mediaStore = options.mediaStore ?? mediaStoreFor(config, database, clock);
  const uploads = new ImageUploads(mediaStore, app.log, { maxPixels: config.media.maxImagePixels, maxDecodedBytes: config.media.maxDecodedBytes }, new DecodeGate(config.media.decodeConcurrency));
  const mediaSweep = new MediaSweep(database.db, mediaStore, clock, app.log);
  mediaSweep.start(MEDIA_SWEEP_GRACE_MS);
  app.decorate('mediaSweep', mediaSweep);
  app.addHook('onClose', async () => { mediaSweep.stop(); await mediaSweep.firstRun; });
  const jobWrites = new JobWriteService({
    writes: new JobWriteRepository(database.db), reads: jobReads, accounts, permissions, codes, uploads, links, clock,
    timeZone: config.serviceTimeZone,
  });
  const postWrites = new PostWriteService({
    writes: new PostWriteRepository(database.db), reads: posts, uploads,
    og: new OgFetcher(config.ogFetch, app.log), clock,
  });
  const eventDeps = {
    writes: new EventWriteRepository(database.db), accounts, permissions, codes, uploads, links, clock, timeZone: config.serviceTimeZone,
  };
  const eventRules = new EventWriteRules(eventDeps);
  const eventWrites = new EventWriteService(eventDeps, eventRules);
  const eventParts = new EventSubService(eventDeps, eventRules);
  const idempotency = new Idempotency(database.db, clock, config.instanceName);
  const abandonedClaims = await idempotency.releaseAbandoned();
  if (abandonedClaims > 0) app.log.warn({ abandonedClaims }, 'released Idempotency-Key claims an earlier run left unfinished');
  const uploadLimits = { maxRequestBytes: config.media.maxRequestBytes, maxFileBytes: config.media.maxImageBytes };
  const events = new EventService(new EventRepository(database.db, database.reads, database.longReads), accounts, links, clock, config.serviceTimeZone);

  const issuer = config.publicBaseUrl;
  const oauth = new OAuthRepository(database.db);
  const kek = keyEncryptionKey(config.signingKeySecret, config.dataDir);
  const signingKeys = new SigningKeys(database.db, kek, clock, config.lifetimes.accessTokenSeconds);
  await signingKeys.init();
  const tokens = new TokenService(oauth, signingKeys, {
    issuer,
    audience: apiAudience(config),
    accessTokenSeconds: config.lifetimes.accessTokenSeconds,
    refreshTokenSeconds: config.lifetimes.refreshTokenSeconds,
  }, clock);
  const throttle = new LoginThrottle(database.db, config.loginThrottle, clock);
  const sessions = new WebSessions(oauth, accounts, throttle, clock, issuer.startsWith('https://'));

  // Security headers everywhere; the HTML pages set their own Content-Security-Policy, and the
  // interactive reference at /docs needs inline scripts, so no global CSP.
  await app.register(securityHeadersPlugin, { hsts: issuer.startsWith('https://') });
  await app.register(corsPlugin, { origins: config.corsOrigins, oauth, clock });
  await app.register(bodyParsersPlugin);
  await app.register(errorHandlerPlugin, { clock });
  await app.register(requestLogPlugin);
  await app.register(usageCountPlugin, { usage: new UsageCounter(database.db, clock) });
  await app.register(readScopePlugin);
  await app.register(languagePlugin);
  await app.register(queryNormalizationPlugin);
  await app.register(pathIntegersPlugin);
  await app.register(appKeyAuthPlugin, { appKeys });
  await app.register(bearerAuthPlugin, { tokens });
  const rateLimits = options.rateLimitStore ?? await rateLimitStoreFor(config, database, clock, app.log);
  await app.register(rateLimitPlugin, { store: rateLimits, limits: config.rateLimits, clock });
  // The code catalogs change only by migration, that is with a restart: their version never moves.
  await app.register(representationCachePlugin, { versions: { ...versions, codes: { read: async () => 0 } }, clock });
  await app.register(conditionalGetPlugin, { store: rateLimits });
  // Last of the onSend hooks: it compresses what the representation cache and conditional GET produced.
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, { publicBaseUrl: config.publicBaseUrl });

  await app.register(healthRoutes, { ping: database.ping, isClosing: () => closing, degraded: () => rateLimits.status() });
  await app.register(postRoutes, { posts });
  await app.register(jobRoutes, { jobs });
  await app.register(meRoutes, { permissions, accounts, links });
  await app.register(mediaRoutes, { store: mediaStore });
  await app.register(eventRoutes, { events });
  await app.register(eventSubRoutes, { events: eventParts, idempotency });
  // The writes that take uploads, with multipart parsing (and its per-request hooks) for them alone.
  await app.register(async (scope) => {
    await scope.register(multipartPlugin, { maxImageBytes: config.media.maxImageBytes });
    await scope.register(postWriteRoutes, { posts: postWrites, idempotency, limits: uploadLimits, uploads });
    await scope.register(jobWriteRoutes, { jobs: jobWrites, idempotency, limits: uploadLimits, uploads });
    await scope.register(eventWriteRoutes, { events: eventWrites, idempotency, limits: uploadLimits, uploads });
  });
  await app.register(codeRoutes, { codes });
  await app.register(discoveryRoutes, { issuer, keys: signingKeys });
  await app.register(authorizeRoutes, { oauth, sessions, issuer, codeSeconds: config.lifetimes.authorizationCodeSeconds, clock });
  await app.register(tokenRoutes, { oauth, tokens, clock });
  await app.register(userinfoRoutes, { accounts, links, webBaseUrl: config.webBaseUrl });
  await app.register(consoleRoutes, { database, accounts, appKeys, oauth, sessions, tokens, keyEncryptionKey: kek, signUpOpen: config.consoleSignUpOpen,
    globalLimits: { perMinute: config.rateLimits.globalPerMinute, perDay: config.rateLimits.globalPerDay }, clock });
  if (options.demoCallback) await app.register(demoCallbackRoutes, { publicBaseUrl: config.publicBaseUrl, ...options.demoCallback });

  return app;
}
