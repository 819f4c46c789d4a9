import fp from 'fastify-plugin';
import { readScope } from '../db/read-scope.js';
import { addRouteHook } from '../shared/route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route runs long reads (searches): they are dropped unrun if its client leaves first. */
    longReads?: boolean;
  }
}

/**
 * Runs the handlers of routes marked `config.longReads` inside a read scope (db/read-scope.ts) whose signal
 * fires when the client closes the connection before the response is written.
 */
export const longReadsPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (!route.config?.longReads) return;
      addRouteHook(
        route,
        'onRequest',
        (
          request: { raw: unknown },
          reply: { raw: NodeJS.EventEmitter & { writableFinished: boolean } },
          done: () => void,
        ) => {
          const controller = new AbortController();
          reply.raw.once('close', () => {
            if (!reply.raw.writableFinished) controller.abort();
          });
          readScope.run({ signal: controller.signal }, done);
        },
      );
    });
  },
  { name: 'read-scope' },
);
