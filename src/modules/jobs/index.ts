import type { FastifyInstance } from 'fastify';
import { FEED_LOCALE, publicOrNull } from '../../change-feed/snapshots.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import { JobIndex, jobIndexCopy } from './job-index.js';
import type { AccountsArea } from '../accounts/index.js';
import type { CodeService } from '../codes/code-service.js';
import { JobRepository } from './job-repository.js';
import { jobRoutes } from './job-routes.js';
import { JobService } from './job-service.js';
import { JobWriteRepository } from './job-write-repository.js';
import { jobWriteRoutes } from './job-write-routes.js';
import { JobWriteService } from './job-write-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job search index of this instance (job-index.ts). */
    jobIndex: JobIndex;
  }
}

/**
 * Job postings: search and read the hiring ones with an app key (the search index of this instance), and manage
 * a company's postings with a user's token and the capabilities of its roles (docs/decisions.md, job lifecycle).
 */
export async function jobsArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea; codes: CodeService },
): Promise<Area> {
  const { config, database, clock, links, uploads, idempotency, uploadLimits } = infra;
  const { accounts, permissions } = deps.accounts;
  const index = new JobIndex(database, infra.versions.jobs, jobIndexCopy(config.dataDir), clock, infra.log);
  await index.ready(true);
  app.decorate('jobIndex', index);
  app.addHook('onClose', async () => {
    await index.close();
  });
  const reads = new JobRepository(database.db, database.reads);
  const jobs = new JobService(reads, index, accounts, deps.codes, links, clock);
  const writes = new JobWriteService({
    writes: new JobWriteRepository(database.db, infra.changes),
    reads,
    accounts,
    permissions,
    codes: deps.codes,
    uploads,
    links,
    clock,
    timeZone: config.serviceTimeZone,
  });
  infra.changes.provide(
    'job',
    async (id) =>
      (await publicOrNull(jobs.detail(Number(id), FEED_LOCALE, await infra.versions.jobs.read())))?.job ?? null,
  );
  return {
    routes: async (scope) => {
      await scope.register(jobRoutes, { jobs });
    },
    uploadRoutes: async (scope) => {
      await scope.register(jobWriteRoutes, { jobs: writes, idempotency, limits: uploadLimits, uploads });
    },
  };
}
