import type { Area, Infrastructure } from '../../infrastructure.js';
import { healthRoutes } from './health-routes.js';

/**
 * /healthz and /readyz: `isClosing` says when the app has begun to shut down; `searchIndexes`, each index's name and
 * its reads of changed items that failed in a row (being tried again).
 */
export function healthArea(
  infra: Infrastructure,
  isClosing: () => boolean,
  searchIndexes: () => Array<{ index: string; failingReads: number }>,
): Area {
  const fallbacks = async () => {
    const [rateLimits, revocations] = await Promise.all([infra.rateLimits.check(), infra.revocations.problem()]);
    const behind = searchIndexes().filter((i) => i.failingReads > 0);
    const indexes = behind.length
      ? behind
          .map((i) => `${i.index}: reading changed items failed ${i.failingReads} times in a row, trying again`)
          .join('; ')
      : null;
    return { rateLimits, revocations, searchIndexes: indexes };
  };
  return {
    routes: async (app) => {
      await app.register(healthRoutes, {
        ping: infra.database.ping,
        isClosing,
        fallbacks,
        version: infra.version,
        commit: infra.commit,
      });
    },
  };
}
