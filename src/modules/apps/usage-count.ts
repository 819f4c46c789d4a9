import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RequestLog } from './request-log.js';
import type { UsageCounter } from './usage.js';
import { addRouteHook } from '../../shared/route-hooks.js';
import { callerOf } from '../../shared/caller.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The usage counter (its `flush()` writes what it holds now). */
    usage: UsageCounter;
    /** Each app's latest requests, for the console (its `flush()` writes what it holds now). */
    requestLog: RequestLog;
  }
  interface FastifyRequest {
    /** performance.now() when an /api/v1 request reached its route: the request log's time taken counts from it. */
    arrivedAt: number;
  }
}

/**
 * Counts every /api/v1 call whose app is known (an app key, or a Bearer token's client), by operation and
 * status class, for the console's usage page (modules/apps/usage.ts), and keeps it in the app's request log
 * (request-log.ts). The hook runs as the response is sent
 * (its status is final then) and only adds to an in-memory count; an onResponse hook, tried first, cost a
 * third of the pipeline's throughput (npm run bench:pipeline; bench/results/performance-history.md).
 */
export const usageCountPlugin = fp(
  async (app, opts: { usage: UsageCounter; requestLog: RequestLog; clock: () => number }) => {
    app.decorate('usage', opts.usage);
    app.decorate('requestLog', opts.requestLog);
    app.decorateRequest('arrivedAt', 0);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/v1/')) return;
      const operation =
        (route.schema as { operationId?: string } | undefined)?.operationId ?? `${route.method} ${route.url}`;
      // Fastify's reply.elapsedTime is measured only with an onResponse hook or a logger, whose cost the note above says.
      addRouteHook(route, 'onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
        request.arrivedAt = performance.now();
        done();
      });
      addRouteHook(
        route,
        'onSend',
        (
          request: FastifyRequest,
          reply: FastifyReply,
          payload: unknown,
          done: (err: null, payload: unknown) => void,
        ) => {
          const subject = callerOf(request);
          if (subject) {
            opts.usage.count(subject, operation, reply.statusCode);
            opts.requestLog.record(subject, {
              at: opts.clock(),
              operation,
              status: reply.statusCode,
              code: request.errorCode,
              durationMs: Math.round((performance.now() - request.arrivedAt) * 10) / 10,
              requestId: request.id,
            });
          }
          done(null, payload);
        },
      );
    });
    app.addHook('onClose', async () => {
      await Promise.all([opts.usage.close(), opts.requestLog.close()]);
    });
  },
  { name: 'usage-count' },
);
