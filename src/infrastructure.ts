import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runningCommit } from './build-stamp.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, RawServerDefault } from 'fastify';
import { DataVersion } from './cache/data-version.js';
import { openRevocations, type Revocations } from './cache/revocations.js';
import { ChangeFeed } from './change-feed/change-feed.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { DecodeGate } from './media/decode-gate.js';
import { ImageProcess } from './media/image-process.js';
import { ImageUploads } from './media/image-uploads.js';
import { mediaStoreFor } from './media/media-store-factory.js';
import type { MediaStore } from './media/media-store.js';
import { MEDIA_SWEEP_GRACE_MS, MediaSweep } from './media/media-sweep.js';
import { rateLimitStoreFor } from './rate-limit/rate-limit-store-factory.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { startPruning } from './search/search-changes.js';
import { Idempotency } from './db/idempotency.js';
import { Links } from './shared/links.js';

/**
 * What every area of the service builds on, made once per app: the database and the clock, the data versions
 * that caches are kept under, the media store and the image checks, Idempotency-Key claims, the rate-limit
 * store, and the web addresses. Areas (src/modules/<area>/index.ts) take it and build their own repositories
 * and services from it; nothing here knows about an area.
 */
export interface Infrastructure {
  /** The running release: package.json's version (src/ and dist/ both sit beside it). */
  version: string;
  /** The git commit of the running code (build-stamp.ts). */
  commit: string;
  config: Config;
  database: Database;
  clock: () => number;
  log: FastifyBaseLogger;
  links: Links;
  /** Bumped by every write to posts or jobs, on any instance (cache/data-version.ts). */
  versions: {
    posts: DataVersion;
    jobs: DataVersion;
    events: DataVersion;
    companies: DataVersion;
    profiles: DataVersion;
  };
  mediaStore: MediaStore;
  uploads: ImageUploads;
  uploadLimits: { maxRequestBytes: number; maxFileBytes: number };
  idempotency: Idempotency;
  rateLimits: RateLimitStore;
  /** The change feed: writes record into it and complete it after their commit; each area says how it shows its resources. */
  changes: ChangeFeed;
  /** Ended credentials, told to every instance so that their caches drop them at once (cache/revocations.ts). */
  revocations: Revocations;
}

/** Route modules, registered with the TypeBox type provider (their schemas type their handlers). */
export type Routes = FastifyPluginAsync<Record<never, never>, RawServerDefault, TypeBoxTypeProvider>;

/** What an area adds to the app: its routes, and the routes of its writes that take uploads (multipart). */
export interface Area {
  routes?: Routes;
  uploadRoutes?: Routes;
}

export interface InfrastructureOptions {
  config: Config;
  database: Database;
  clock: () => number;
  mediaStore?: MediaStore;
  rateLimitStore?: RateLimitStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Removes uploads nothing refers to; its first run starts with the app (src/media/media-sweep.ts). */
    mediaSweep: MediaSweep;
    /** The change feed (src/change-feed/): its hiring sweep and pruning also run on timers. */
    changeFeed: ChangeFeed;
    /** Where uploads are decoded: a separate process, started by the first (src/media/image-process.ts). */
    imageProcess: ImageProcess;
  }
}

const RELEASE = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
/** Which commit this is, beside the release: tells old and new instances apart during a rollout. */
const COMMIT = runningCommit(path.dirname(fileURLToPath(import.meta.url)));

/** Opens the infrastructure for `app`; what it starts (the media sweep, the pruning of the search change log) stops with it. */
export async function openInfrastructure(
  app: FastifyInstance,
  options: InfrastructureOptions,
): Promise<Infrastructure> {
  const { config, database, clock } = options;
  const mediaStore = options.mediaStore ?? mediaStoreFor(config, database, clock);
  database.onIdleConnectionLost((err, pool) =>
    app.log.warn({ err, pool }, 'the database closed an idle connection: the pool opens a new one when it needs one'),
  );
  const mediaSweep = new MediaSweep(database.db, mediaStore, clock, app.log);
  mediaSweep.start(MEDIA_SWEEP_GRACE_MS);
  app.decorate('mediaSweep', mediaSweep);
  app.addHook('onClose', async () => {
    mediaSweep.stop();
    await mediaSweep.firstRun;
  });
  const stopPruning = startPruning(database.db, clock, (err) =>
    app.log.error({ err }, 'pruning the search change log failed'),
  );
  app.addHook('onClose', async () => {
    stopPruning();
  });

  const images = new ImageProcess(app.log);
  app.decorate('imageProcess', images);
  app.addHook('onClose', () => images.close());

  const changes = new ChangeFeed(
    database.db,
    clock,
    app.log,
    config.changesRetentionDays * 86_400_000,
    database.background,
  );
  // Its sweep completes the changes it records with each resource as its area shows it: the timers start once every
  // area has said how (they register while the app is built, some after building a search index for minutes).
  let stopChanges = async (): Promise<void> => {};
  app.addHook('onReady', async () => {
    stopChanges = changes.start();
  });
  app.decorate('changeFeed', changes);
  // Writes are answered before their changes are completed: a completion still running ends before the database closes.
  app.addHook('onClose', async () => {
    await stopChanges();
    await changes.publishing;
  });

  const idempotency = new Idempotency(database.db, clock, config.instanceName);
  const abandonedClaims = await idempotency.releaseAbandoned();
  if (abandonedClaims > 0)
    app.log.warn({ abandonedClaims }, 'released Idempotency-Key claims an earlier run left unfinished');

  // Each waits for Redis (when REDIS_URL is set) up to a few seconds at most: side by side.
  const [rateLimits, revocations] = await Promise.all([
    options.rateLimitStore ?? rateLimitStoreFor(config, database, clock, app.log),
    openRevocations(config.redisUrl, database.notices, app.log),
  ]);
  app.addHook('onClose', () => revocations.close());

  return {
    version: RELEASE,
    commit: COMMIT,
    config,
    database,
    clock,
    log: app.log,
    links: new Links(config.webBaseUrl, config.publicBaseUrl),
    versions: {
      posts: new DataVersion(database.reads, 'posts'),
      jobs: new DataVersion(database.reads, 'jobs'),
      events: new DataVersion(database.reads, 'events'),
      companies: new DataVersion(database.reads, 'companies'),
      profiles: new DataVersion(database.reads, 'profiles'),
    },
    mediaStore,
    uploads: new ImageUploads(
      mediaStore,
      app.log,
      { maxPixels: config.media.maxImagePixels, maxDecodedBytes: config.media.maxDecodedBytes },
      new DecodeGate(config.media.decodeConcurrency),
      images,
    ),
    uploadLimits: { maxRequestBytes: config.media.maxRequestBytes, maxFileBytes: config.media.maxImageBytes },
    idempotency,
    rateLimits,
    changes,
    revocations,
  };
}
