import type { FastifyInstance } from 'fastify';
import { FEED_LOCALE, publicOrNull } from '../../change-feed/snapshots.js';
import type { Area, Infrastructure } from '../../infrastructure.js';
import type { AccountsArea } from '../accounts/index.js';
import { EventIndex, eventIndexCopy } from './event-index.js';
import { EventRepository } from './event-repository.js';
import { eventRoutes } from './event-routes.js';
import { EventService } from './event-service.js';
import { eventSubRoutes } from './event-sub-routes.js';
import { EventSubService } from './event-sub-service.js';
import { EventWriteRepository } from './event-write-repository.js';
import { eventWriteRoutes } from './event-write-routes.js';
import { EventWriteRules } from './event-write-rules.js';
import { EventWriteService } from './event-write-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The event search index of this instance (event-index.ts). */
    eventIndex: EventIndex;
  }
}

/**
 * Events: search (the search index of this instance, ready before the app serves) and read the published ones with
 * their tickets, sessions and FAQs (app key), and manage a company's events and their parts with a user's token
 * (`event:write`).
 */
export async function eventsArea(
  app: FastifyInstance,
  infra: Infrastructure,
  deps: { accounts: AccountsArea },
): Promise<Area> {
  const { config, database, clock, links, uploads, idempotency, uploadLimits } = infra;
  const { accounts, permissions } = deps.accounts;
  const index = new EventIndex(database, infra.versions.events, eventIndexCopy(config.dataDir), clock, infra.log);
  await index.ready(true);
  app.decorate('eventIndex', index);
  app.addHook('onClose', async () => {
    await index.close();
  });
  const events = new EventService(
    new EventRepository(database.db, database.reads),
    index,
    accounts,
    links,
    clock,
    config.serviceTimeZone,
  );
  const writeDeps = {
    writes: new EventWriteRepository(database.db, infra.changes, clock),
    accounts,
    permissions,
    uploads,
    links,
    clock,
    timeZone: config.serviceTimeZone,
  };
  infra.changes.provide('event', (id) => publicOrNull(events.detail(id, FEED_LOCALE)));
  const rules = new EventWriteRules(writeDeps);
  const writes = new EventWriteService(writeDeps, rules);
  const parts = new EventSubService(writeDeps, rules);
  return {
    routes: async (scope) => {
      await scope.register(eventRoutes, { events });
      await scope.register(eventSubRoutes, { events: parts, idempotency });
    },
    uploadRoutes: async (scope) => {
      await scope.register(eventWriteRoutes, { events: writes, idempotency, limits: uploadLimits, uploads });
    },
  };
}
