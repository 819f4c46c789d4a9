/**
 * The request pipeline: the cross-cutting plugins, registered in the order a request meets their hooks. Security
 * headers everywhere (the HTML pages set their own Content-Security-Policy, and the interactive reference at /docs
 * needs inline scripts, so there is no global one), CORS, body parsing, errors, the request log line, metrics, usage
 * and the request log, the read scope, the language, query and path normalization, the app key and the Bearer token,
 * rate limits, the representation cache, conditional GET, compression (last of the onSend hooks: it compresses what
 * the cache and conditional GET produced), and the OpenAPI document built from every route registered after it.
 */
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from './infrastructure.js';
import { appKeyAuthPlugin } from './modules/accounts/app-key-auth.js';
import type { AccountsArea } from './modules/accounts/index.js';
import type { AppsArea } from './modules/apps/index.js';
import { usageCountPlugin } from './modules/apps/usage-count.js';
import { bearerAuthPlugin, INTERNAL_HEADER } from './modules/oauth/bearer-auth.js';
import type { OAuthArea } from './modules/oauth/index.js';
import { bodyParsersPlugin } from './plugins/body-parsers.js';
import { compressionPlugin } from './plugins/compression.js';
import { conditionalGetPlugin } from './plugins/conditional-get.js';
import { corsPlugin } from './plugins/cors.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { languagePlugin } from './plugins/language.js';
import { metricsPlugin } from './plugins/metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { pathIntegersPlugin } from './plugins/path-integers.js';
import { queryNormalizationPlugin } from './plugins/query-normalization.js';
import { rateLimitPlugin } from './rate-limit/rate-limit-plugin.js';
import { longReadsPlugin } from './plugins/long-reads.js';
import { representationCachePlugin } from './plugins/representation-cache.js';
import { requestLogPlugin } from './plugins/request-log.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { webhookStats } from './modules/webhooks/webhook-stats.js';

/** Each search index of this instance by name. */
export function searchIndexes(app: FastifyInstance) {
  return [
    { index: 'posts', served: app.postIndex },
    { index: 'jobs', served: app.jobIndex },
    { index: 'events', served: app.eventIndex },
    { index: 'companies', served: app.companyIndex },
    { index: 'profiles', served: app.profileIndex },
  ];
}

/** Each search index of this instance by name, with its figures (for the metrics). */
export function searchIndexFigures(app: FastifyInstance) {
  return searchIndexes(app).map(({ index, served }) => ({ index, ...served.stats() }));
}

export async function registerRequestPipeline(
  app: FastifyInstance,
  infra: Infrastructure,
  areas: { accounts: AccountsArea; apps: AppsArea; oauth: OAuthArea },
): Promise<void> {
  const { config, database, clock } = infra;
  const { accounts, apps, oauth } = areas;
  await app.register(securityHeadersPlugin, { hsts: config.publicBaseUrl.startsWith('https://') });
  await app.register(corsPlugin, {
    origins: config.corsOrigins,
    publicClientRedirectUris: oauth.publicClientRedirectUris,
    appWebOrigins: () => accounts.accounts.appWebOrigins(),
    clock,
  });
  await app.register(bodyParsersPlugin);
  await app.register(errorHandlerPlugin, { clock });
  await app.register(requestLogPlugin);
  if (config.metrics.enabled) {
    await app.register(metricsPlugin, {
      token: config.metrics.token,
      version: infra.version,
      commit: infra.commit,
      sources: {
        searchIndexes: () => searchIndexFigures(app),
        pools: () => database.pools(),
        webhooks: {
          onAttempt: (listener) => app.webhooks.onAttempt(listener),
          stats: () => webhookStats(database.background, clock()),
        },
      },
    });
  }
  await app.register(usageCountPlugin, { usage: apps.usage, requestLog: apps.requestLog, clock });
  await app.register(longReadsPlugin);
  await app.register(languagePlugin);
  await app.register(queryNormalizationPlugin);
  await app.register(pathIntegersPlugin);
  await app.register(appKeyAuthPlugin, {
    appKeys: accounts.appKeys,
    origins: [...config.corsOrigins, new URL(config.publicBaseUrl).origin],
    internal: { header: INTERNAL_HEADER, secret: oauth.mcp.internalSecret },
  });
  await app.register(bearerAuthPlugin, {
    tokens: oauth.tokens,
    callers: oauth.tokenCallers,
    internal: { secret: oauth.mcp.internalSecret, audience: oauth.mcp.resource },
  });
  await app.register(rateLimitPlugin, { store: infra.rateLimits, limits: config.rateLimits, clock });
  // The code catalogs change only by migration, that is with a restart: their version never moves.
  await app.register(representationCachePlugin, {
    versions: { ...infra.versions, codes: { read: async () => 0 } },
    clock,
  });
  await app.register(conditionalGetPlugin, { store: infra.rateLimits });
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, {
    publicBaseUrl: config.publicBaseUrl,
    scopes: oauth.scopes,
    version: infra.version,
  });
}
