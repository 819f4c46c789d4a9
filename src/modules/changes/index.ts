import type { Area, Infrastructure } from '../../infrastructure.js';
import { changeRoutes } from './change-routes.js';

/** The change feed (GET /api/v1/changes): what the writes of posts, jobs and events recorded, read with an app key. */
export function changesArea(infra: Infrastructure): Area {
  return {
    routes: async (app) => {
      await app.register(changeRoutes, { changes: infra.changes, links: infra.links });
    },
  };
}
