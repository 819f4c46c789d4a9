import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Status = Type.Object({ status: Type.String() });

/** Liveness (the process answers) and readiness (the database answers and we are not shutting down). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ ping: () => Promise<void>; isClosing: () => boolean }> = async (app, opts) => {
  app.get('/healthz', {
    schema: { tags: ['Service'], summary: 'Liveness', response: { 200: Status } },
  }, async () => ({ status: 'ok' }));

  app.get('/readyz', {
    schema: { tags: ['Service'], summary: 'Readiness', response: { 200: Status, 503: Status } },
  }, async (request, reply) => {
    if (opts.isClosing()) return reply.status(503).send({ status: 'shutting down' });
    try {
      await opts.ping();
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
};
