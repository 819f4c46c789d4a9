import type { Infrastructure } from '../../infrastructure.js';
import { RequestLog } from '../apps/request-log.js';
import { UsageCounter } from '../apps/usage.js';
import { AccountsRepository } from './accounts-repository.js';
import { AppKeyService } from './app-key-service.js';
import { PermissionService } from './permission-service.js';

/**
 * Users, companies, apps and their keys, and what a user may do at a company. No routes of its own: the app-key
 * check (app-key-auth.ts) and the usage count (apps/usage-count.ts) are registered with the cross-cutting
 * plugins; the other areas read users, companies and permissions through it.
 */
export function accountsArea(infra: Infrastructure) {
  const { database, clock, config } = infra;
  const accounts = new AccountsRepository(database.db, clock);
  return {
    accounts,
    appKeys: new AppKeyService(accounts, config.apiKeyCacheSeconds, clock, infra.revocations),
    permissions: new PermissionService(database.db),
    usage: new UsageCounter(database.db, clock),
    requestLog: new RequestLog(database.db, config.requestLogPerApp),
  };
}

export type AccountsArea = ReturnType<typeof accountsArea>;
