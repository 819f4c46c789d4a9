import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Status = Type.Object({ status: Type.String() });
const Readiness = Type.Object({
  status: Type.String({ description: '`ready`, `degraded` (serving, with a fallback in use), `shutting down` or `database unavailable`' }),
  rateLimits: Type.Optional(Type.String({ description: 'When degraded: what the rate limits do instead' })),
}, { title: 'Readiness' });

/**
 * Liveness (the process answers) and readiness (the database answers and we are not shutting down). A
 * fallback in use (Redis unreachable) keeps the instance ready but says so, as `degraded`: taking every
 * instance out of service because a shared counter store is away would turn a degradation into an outage.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ ping: () => Promise<void>; isClosing: () => boolean; degraded: () => string | null }> = async (app, opts) => {
  app.get('/healthz', {
    schema: { tags: ['Service'], operationId: 'getLiveness', summary: 'Liveness', response: { 200: Status } },
  }, async () => ({ status: 'ok' }));

  app.get('/readyz', {
    schema: { tags: ['Service'], operationId: 'getReadiness', summary: 'Readiness', response: { 200: Readiness, 503: Readiness } },
  }, async (request, reply) => {
    if (opts.isClosing()) return reply.status(503).send({ status: 'shutting down' });
    try {
      await opts.ping();
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'database unavailable' });
    }
    const rateLimits = opts.degraded();
    return rateLimits === null ? { status: 'ready' } : { status: 'degraded', rateLimits };
  });
};
