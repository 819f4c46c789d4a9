import type { Infrastructure } from '../../infrastructure.js';
import { RequestLog } from './request-log.js';
import { UsageCounter } from './usage.js';

/**
 * What the service keeps of each app's calls: the usage counts and the request log the console shows. No routes of
 * its own: the count is taken by the usage plugin (usage-count.ts) in the request pipeline, and the console reads both.
 */
export function appsArea(infra: Infrastructure) {
  const { database, clock, config } = infra;
  return {
    usage: new UsageCounter(database.db, clock),
    requestLog: new RequestLog(database.db, config.requestLogPerApp),
  };
}

export type AppsArea = ReturnType<typeof appsArea>;
