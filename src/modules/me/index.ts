import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import { meRoutes } from './me-routes.js';

/** What the signed-in user may do at their companies and on single jobs and events (`company:manage:read`). */
export function meArea(infra: Infrastructure, deps: { accounts: AccountsArea }): Area {
  const { accounts, permissions } = deps.accounts;
  return {
    routes: async (app) => {
      await app.register(meRoutes, { permissions, accounts, links: infra.links });
    },
  };
}
