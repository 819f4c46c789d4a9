import type { Area, Infrastructure } from '../../infrastructure.js';
import { healthRoutes } from './health-routes.js';

/** /healthz and /readyz: `isClosing` says when the app has begun to shut down. */
export function healthArea(infra: Infrastructure, isClosing: () => boolean): Area {
  const fallbacks = async () => {
    const [rateLimits, revocations] = await Promise.all([infra.rateLimits.check(), infra.revocations.problem()]);
    return { rateLimits, revocations };
  };
  return {
    routes: async (app) => {
      await app.register(healthRoutes, { ping: infra.database.ping, isClosing, fallbacks, version: infra.version });
    },
  };
}
