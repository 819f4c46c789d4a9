/**
 * Webhooks (docs/webhooks.md): every instance runs a dispatcher that sends the deliveries of the endpoints it holds
 * the lease of, and prunes the deliveries the feed no longer keeps the changes of.
 */
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../infrastructure.js';
import { randomBase62 } from '../../shared/keys.js';
import { WebhookDispatcher } from './dispatcher.js';
import { WebhookEndpoints } from './webhook-endpoints.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends webhook deliveries (src/modules/webhooks/dispatcher.ts); tests call its `settle()`. */
    webhooks: WebhookDispatcher;
  }
}

/** Starts this instance's dispatcher; it stops, finishing the rounds in flight, when the app closes. */
export function webhooksArea(app: FastifyInstance, infra: Infrastructure, keyEncryptionKey: Buffer): WebhookEndpoints {
  const { config, database, clock, changes, links } = infra;
  const dispatcher = new WebhookDispatcher(database.background, changes, links, clock, app.log, {
    owner: `${config.instanceName}/${randomBase62(8)}`,
    kek: keyEncryptionKey,
    ...config.webhooks,
  });
  const endpoints = new WebhookEndpoints(database.db, keyEncryptionKey, config.webhooks.endpointsPerApp);
  app.decorate('webhooks', dispatcher);
  const prune = setInterval(() => {
    endpoints
      .prune(clock() - changes.retentionMs)
      .catch((err: unknown) => app.log.error({ err }, 'webhooks: pruning deliveries failed'));
  }, 3_600_000);
  prune.unref();
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    const released = await dispatcher.releaseEarlierRuns(config.instanceName);
    if (released > 0)
      app.log.warn({ released }, 'webhooks: freed the endpoint leases an earlier run of this instance left');
    stop = dispatcher.start();
  });
  app.addHook('onClose', async () => {
    clearInterval(prune);
    await stop?.();
  });
  return endpoints;
}
