import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { connectionLimits, headerSizeCheck } from './net/connection-limits.js';
import { routedPath } from './net/drop-in-aliases.js';
import { sendError } from './plugins/error-handler.js';
import { buildResponseSerializer } from './schemas/response-serializer.js';
import { ApiError } from './shared/api-error.js';
import { loggerOptions } from './shared/log-options.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Begins a graceful shutdown's drain: still serving, but /readyz says 503 and no connection is kept alive. */
    startDraining(): void;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The Fastify instance the service is assembled on (app.ts): request ids, router limits, the connection limits,
 * validation options, and what every request gets before any plugin (its id echoed, U+0000 refused). `isClosing`
 * turns true when the app begins to drain (`app.startDraining()`, before a graceful close) or to close; from then on
 * each response closes its connection and /readyz answers 503.
 */
export function createServer(config: Config, clock: () => number, logger?: FastifyServerOptions['logger']) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel, config.logFormat),
    // Accept a caller's request id only when it is short and plain, so it cannot forge log lines.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Only the hops the settings name: a number of them nearest to us, or the proxies' addresses (TRUST_PROXY).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Path parameters up to the longest the spec allows (a company handle of 255), with room: a longer one is
    // then refused by the route's schema with the spec's body rather than by the router.
    routerOptions: { maxParamLength: 512 },
    // The real service's `/v1/...` paths reach the same routes as `/api/v1/...`: one operation, with its limits,
    // caches and errors, whichever prefix (request.originalUrl keeps what the client sent, for logs and messages).
    rewriteUrl: (req) => routedPath(req.url!),
    // What the router refuses before any route runs (a malformed percent-escape, an over-long parameter) goes
    // out in the spec's ErrorResponse body too.
    frameworkErrors: (error, request, reply) => {
      const path = request.originalUrl.split('?')[0]!.slice(0, 200);
      void sendError(
        reply,
        new ApiError(
          'C0002',
          `The request path is not valid (${error.code === 'FST_ERR_BAD_URL' ? 'a malformed percent-escape' : 'a path parameter longer than 512 characters'}): ${path}`,
          'path',
        ),
        clock(),
      );
    },
    // A request that arrives once the close has begun (after the drain) is not answered: its connection is closed,
    // which a proxy takes as "not applied, send it to another instance" (deploy/nginx), where a 503 would be passed on
    // to the client as the service's answer.
    return503OnClosing: false,
    // One line per request instead of two, with what an operator needs (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    ...connectionLimits(config.http, clock),
    ajv: { customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false } },
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.maxConnections = config.http.maxConnections;

  let closing = false;
  let closed = false;
  app.decorate('startDraining', () => {
    closing = true;
  });
  app.addHook('preClose', async () => {
    closing = true;
    closed = true;
  });
  // A response finished during shutdown closes its connection, so the server is not kept open by
  // keep-alive clients until their idle timeout. (Hooks that never wait take `done`: no promise per request.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  const headersFit = headerSizeCheck(clock);
  app.addHook('onRequest', (request, reply, done) => {
    if (closed) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    reply.header('X-Request-Id', request.id);
    if (!headersFit(request, reply)) return;
    // U+0000 in the path or the query: PostgreSQL cannot store or compare it, so no engine sees it.
    const nul = request.url.indexOf('%00');
    if (nul < 0) return done();
    const query = request.url.indexOf('?');
    const inQuery = query >= 0 && nul > query;
    done(
      new ApiError(
        inQuery ? 'C0005' : 'C0002',
        `The ${inQuery ? 'query' : 'path'} must not contain the character U+0000 (%00)`,
        inQuery ? 'query' : 'path',
      ),
    );
  });

  return { app, isClosing: () => closing };
}
