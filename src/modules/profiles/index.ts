import type { FastifyInstance } from 'fastify';
import { publicOrNull } from '../../change-feed/snapshots.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import { meProfileRoutes } from './me-profile-routes.js';
import { ProfileIndex, profileIndexCopy } from './profile-index.js';
import { ProfileReadQuota } from './profile-read-quota.js';
import { ProfileRepository } from './profile-repository.js';
import { profileRoutes } from './profile-routes.js';
import { ProfileService } from './profile-service.js';
import { ProfileWriteRepository } from './profile-write-repository.js';
import { ProfileWriteService } from './profile-write-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The profile search index of this instance (profile-index.ts). */
    profileIndex: ProfileIndex;
  }
}

/**
 * Profiles: members' professional profiles, public only where each member says so (docs/profiles.md). Apps search and
 * read public profiles with an app key; a member reads and keeps their own with a token.
 */
export async function profilesArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea },
): Promise<Area> {
  const { config, database, clock, links } = infra;
  const index = new ProfileIndex(database, infra.versions.profiles, profileIndexCopy(config.dataDir), infra.log);
  await index.ready(true);
  app.decorate('profileIndex', index);
  app.addHook('onClose', async () => {
    await index.close();
  });
  const repository = new ProfileRepository(database.reads, database.db);
  const profiles = new ProfileService(
    repository,
    index,
    infra.versions.profiles,
    deps.accounts.accounts,
    new ProfileReadQuota(database.db, config.rateLimits.profileReadsPerDay, clock),
    links,
    clock,
  );
  const writes = new ProfileWriteService(
    new ProfileWriteRepository(database.db, infra.changes, clock),
    repository,
    deps.accounts.accounts,
    clock,
  );
  // A change's `data` is the profile as an app key reads it now: null once it is not public (the feed reads for no app).
  infra.changes.provide('profile', (handle) => publicOrNull(profiles.detail(String(handle), null)));
  return {
    routes: async (scope) => {
      await scope.register(profileRoutes, { profiles });
      await scope.register(meProfileRoutes, { profiles, writes });
    },
  };
}
