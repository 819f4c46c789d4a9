import type { FastifyInstance } from 'fastify';
import { FEED_LOCALE, publicOrNull } from '../../change-feed/snapshots.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import { PostIndex, postIndexCopy } from './post-index.js';
import type { AccountsArea } from '../accounts/index.js';
import { OgFetcher } from './og-fetcher.js';
import { PostRepository } from './post-repository.js';
import { postRoutes } from './post-routes.js';
import { PostService } from './post-service.js';
import { PostWriteRepository } from './post-write-repository.js';
import { postWriteRoutes } from './post-write-routes.js';
import { PostWriteService } from './post-write-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The post search index of this instance (post-index.ts). */
    postIndex: PostIndex;
  }
}

/**
 * Posts: search and read with an app key (the search index of this instance, ready before the app serves),
 * write with a user's token (images, Open Graph cards fetched from the link in the text).
 */
export async function postsArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea },
): Promise<Area> {
  const { config, database, clock, links, uploads, idempotency, uploadLimits } = infra;
  const index = new PostIndex(database, infra.versions.posts, postIndexCopy(config.dataDir), infra.log);
  await index.ready(true);
  app.decorate('postIndex', index);
  app.addHook('onClose', async () => {
    await index.close();
  });
  const posts = new PostService(
    new PostRepository(database.reads),
    index,
    deps.accounts.accounts,
    links,
    config.serviceTimeZone,
  );
  const writes = new PostWriteService({
    writes: new PostWriteRepository(database.db, infra.changes),
    reads: posts,
    uploads,
    og: new OgFetcher(config.ogFetch, infra.log),
    clock,
  });
  infra.changes.provide('post', async (id) =>
    publicOrNull(posts.detail(Number(id), null, FEED_LOCALE, await infra.versions.posts.read())),
  );
  return {
    routes: async (scope) => {
      await scope.register(postRoutes, { posts });
    },
    uploadRoutes: async (scope) => {
      await scope.register(postWriteRoutes, { posts: writes, idempotency, limits: uploadLimits, uploads });
    },
  };
}
