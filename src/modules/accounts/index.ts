import type { Infrastructure } from '../../infrastructure.js';
import { AccountsRepository } from './accounts-repository.js';
import { AppKeyService } from './app-key-service.js';
import { PermissionService } from './permission-service.js';

/**
 * Users, companies, apps and their keys, and what a user may do at a company. No routes of its own: the app-key
 * check (app-key-auth.ts) is registered with the cross-cutting plugins; the other areas read users, companies and
 * permissions through it.
 */
export function accountsArea(infra: Infrastructure) {
  const { database, clock, config } = infra;
  const accounts = new AccountsRepository(database.db, clock);
  return {
    accounts,
    appKeys: new AppKeyService(accounts, config.apiKeyCacheSeconds, clock, infra.revocations),
    permissions: new PermissionService(database.db),
  };
}

export type AccountsArea = ReturnType<typeof accountsArea>;
