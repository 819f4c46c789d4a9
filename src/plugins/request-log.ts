import fp from 'fastify-plugin';
import { redactedUrl } from '../shared/redacted-url.js';
import { callerOf } from '../shared/caller.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error code the response carries, for the request's log line (set by sendError). */
    errorCode: string | null;
  }
}

/**
 * One log line per request, when its response has gone: method, path (credential query values redacted),
 * status, the app (app key or OAuth client), the error code and the duration. Headers, bodies and cookies are
 * never logged (log-options.ts also redacts credential headers should any line include them).
 */
export const requestLogPlugin = fp(
  async (app) => {
    app.decorateRequest('errorCode', null);
    // Nothing is built when the level is above info (the hot path); the level is fixed at start.
    if (!['trace', 'debug', 'info'].includes(app.log.level)) return;
    app.addHook('onResponse', (request, reply, done) => {
      const appId = callerOf(request) ?? undefined;
      request.log.info(
        {
          method: request.method,
          path: redactedUrl(request.originalUrl),
          status: reply.statusCode,
          app: appId,
          code: request.errorCode ?? undefined,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
      done();
    });
  },
  { name: 'request-log' },
);
