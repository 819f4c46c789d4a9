import type { FastifyInstance } from 'fastify';
import { FEED_LOCALE, publicOrNull } from '../../change-feed/snapshots.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import type { CodeService } from '../codes/code-service.js';
import { CompanyIndex, companyIndexCopy } from './company-index.js';
import { CompanyRepository } from './company-repository.js';
import { companyRoutes } from './company-routes.js';
import { CompanyService, type HiringJobs } from './company-service.js';
import { CompanyWriteRepository } from './company-write-repository.js';
import { companyWriteRoutes } from './company-write-routes.js';
import { CompanyWriteService } from './company-write-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The company search index of this instance (company-index.ts). */
    companyIndex: CompanyIndex;
  }
}

/**
 * Companies: search and read the directory (app key), with how many jobs each is hiring for now (counted by the job
 * index, `deps.jobs`), and keep a company's profile with a user's token (`company:write`).
 */
export async function companiesArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea; codes: CodeService; jobs: HiringJobs },
): Promise<Area> {
  const { config, database, clock, links, uploads, uploadLimits } = infra;
  const index = new CompanyIndex(database, infra.versions.companies, companyIndexCopy(config.dataDir), infra.log);
  await index.ready(true);
  app.decorate('companyIndex', index);
  app.addHook('onClose', async () => {
    await index.close();
  });
  const companies = new CompanyService(
    new CompanyRepository(database.reads),
    index,
    infra.versions.companies,
    deps.jobs,
    deps.codes,
    links,
    clock,
  );
  const writes = new CompanyWriteService(
    new CompanyWriteRepository(database.db, infra.changes, clock),
    deps.accounts.permissions,
    deps.codes,
    uploads,
    links,
    clock,
  );
  // A change's `data` is the company as its public read shows it (a change row knows the company by its number).
  infra.changes.provide('company', async (id) => {
    const handle = (await deps.accounts.accounts.companyHandles([Number(id)])).get(Number(id));
    return handle === undefined
      ? null
      : publicOrNull(companies.detail(handle, FEED_LOCALE, null).then(({ company }) => company));
  });
  return {
    routes: async (scope) => {
      await scope.register(companyRoutes, { companies });
    },
    uploadRoutes: async (scope) => {
      await scope.register(companyWriteRoutes, { companies: writes, limits: uploadLimits, uploads });
    },
  };
}
