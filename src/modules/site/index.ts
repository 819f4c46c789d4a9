import type { Area, Infrastructure } from '../../infrastructure.js';
import { siteRoutes } from './site-routes.js';

/** The front pages: `/`, the guides at /guides, the icon, the language switch. */
export function siteArea(infra: Infrastructure): Area {
  return {
    routes: async (app) => {
      await app.register(siteRoutes, {
        version: infra.version,
        secureCookies: infra.config.publicBaseUrl.startsWith('https:'),
      });
    },
  };
}
