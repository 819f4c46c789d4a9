import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Status = Type.Object(
  {
    status: Type.String(),
    version: Type.String({ description: "The running release (package.json's version)", examples: ['1.0.0-beta.1'] }),
    commit: Type.String({
      description: 'The git commit of the running code (12 hex digits; `unknown` where it cannot tell)',
      examples: ['c9bf57433363'],
    }),
  },
  { title: 'Liveness' },
);
const Readiness = Type.Object(
  {
    status: Type.String({
      description: '`ready`, `degraded` (serving, with a fallback in use), `shutting down` or `database unavailable`',
    }),
    rateLimits: Type.Optional(Type.String({ description: 'When degraded: what the rate limits do instead' })),
    revocations: Type.Optional(
      Type.String({ description: 'When degraded: how revocations reach the other instances instead' }),
    ),
    searchIndexes: Type.Optional(
      Type.String({
        description:
          'When degraded: the search indexes whose reads of changed items are failing (a search waits for them; ' +
          'the changes are read again, never skipped)',
      }),
    ),
  },
  { title: 'Readiness' },
);

/**
 * How long readiness waits for the database's answer (and its fallbacks' checks): a paused or unreachable database is
 * `database unavailable` within it, whatever the statement time limit, so a balancer's check never hangs.
 */
export const READY_DEADLINE_MS = 1_000;

/** `work`, or `null` when it has not settled within `ms` (its later outcome is dropped). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What runs on a fallback now (null: nothing of that part). */
export interface Fallbacks {
  rateLimits: string | null;
  revocations: string | null;
  searchIndexes: string | null;
}

/**
 * Liveness (the process answers) and readiness (the database answers and we are not shutting down). A
 * fallback in use (Redis unreachable: rate limits counted in the database; the revocation channel down: caches' own
 * lifetimes; a search index retrying its reads of changed items) keeps the instance ready but says so, as
 * `degraded`: taking every instance out of service because a shared store is away would turn a degradation into an
 * outage.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{
  ping: () => Promise<void>;
  isClosing: () => boolean;
  fallbacks: () => Promise<Fallbacks>;
  version: string;
  commit: string;
}> = async (app, opts) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['Service'], operationId: 'getLiveness', summary: 'Liveness', response: { 200: Status } },
    },
    async () => ({ status: 'ok', version: opts.version, commit: opts.commit }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Service'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (request, reply) => {
      if (opts.isClosing()) return reply.status(503).send({ status: 'shutting down' });
      try {
        if (
          (await within(
            opts.ping().then(() => true),
            READY_DEADLINE_MS,
          )) === null
        )
          throw new Error(`the database did not answer within ${READY_DEADLINE_MS} ms`);
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply.status(503).send({ status: 'database unavailable' });
      }
      const { rateLimits, revocations, searchIndexes } = (await within(opts.fallbacks(), READY_DEADLINE_MS)) ?? {
        rateLimits: `its check did not answer within ${READY_DEADLINE_MS} ms`,
        revocations: null,
        searchIndexes: null,
      };
      if (rateLimits === null && revocations === null && searchIndexes === null) return { status: 'ready' };
      return {
        status: 'degraded',
        ...(rateLimits === null ? {} : { rateLimits }),
        ...(revocations === null ? {} : { revocations }),
        ...(searchIndexes === null ? {} : { searchIndexes }),
      };
    },
  );
};
