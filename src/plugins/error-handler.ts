import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { databaseUnavailable } from '../db/database-unavailable.js';
import { ClientGoneError, ReadTimeoutError } from '../db/read-scope.js';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../shared/api-error.js';
import { errorTimestamp } from '../shared/time.js';
import { describeIssue, firstIssue, type ValidationIssue } from '../shared/validation-message.js';

const SOURCE_LABEL: Record<string, string> = {
  querystring: 'Query parameter',
  params: 'Path parameter',
  body: 'Field',
  headers: 'Header',
};

/** Turns a schema validation failure into C0005 (query) or C0002 (path, body, header). */
function validationError(error: FastifyError, request: FastifyRequest): ApiError {
  const context = error.validationContext ?? 'body';
  const issue = firstIssue(error.validation as ValidationIssue[]);
  const source = { querystring: request.query, params: request.params, body: request.body, headers: request.headers }[
    context
  ];
  const { message, field } = describeIssue(SOURCE_LABEL[context] ?? 'Input', [], issue, source);
  const topField = field.split('.')[0] || context;
  return new ApiError(context === 'querystring' ? 'C0005' : 'C0002', message, topField);
}

/** What a 503 for an unreachable database tells the client to wait. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** PostgreSQL's SQLSTATE for a statement stopped by statement_timeout (query_canceled). */
const STATEMENT_TIMEOUT = '57014';

function codeForStatus(status: number): ErrorCode {
  if (status === 413) return 'C0006';
  if (status === 415) return 'C0007';
  if (status === 404) return 'C0008';
  if (status === 405) return 'C0012';
  if (status === 429) return 'C0010';
  return 'C0002';
}

export function sendError(reply: FastifyReply, error: ApiError, now: number): FastifyReply {
  reply.request.errorCode = error.code;
  return (
    reply
      .status(ERROR_STATUS[error.code])
      .headers(error.headers)
      // The message is English whatever Accept-Language asked for (the code is the contract): the header says so.
      .header('Content-Language', 'en')
      .send({ code: error.code, message: error.message, timestamp: errorTimestamp(now), details: error.details })
  );
}

/**
 * Any error a route raised as the ApiError it answers: ApiErrors as they are, validation failures as C0005/C0002,
 * other client errors by status, an unreachable database as C9998, and anything unexpected as a generic C9999 that
 * is logged with the request id and never echoed.
 */
export function apiErrorOf(error: FastifyError, request: FastifyRequest): ApiError {
  let unavailable: string | null;
  if (error instanceof ApiError) return error;
  if (error.validation) return validationError(error, request);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new ApiError(codeForStatus(error.statusCode), error.message, null);
  if ((error as Error) instanceof ClientGoneError) {
    // Nobody is there to read this answer; the read it needed was never run.
    request.log.debug('client left before its search read started');
    return new ApiError('C9999', error.message, null);
  }
  if ((error as Error) instanceof ReadTimeoutError || (error as { code?: string }).code === STATEMENT_TIMEOUT) {
    request.log.warn({ err: error }, 'search read stopped at its time limit');
    return new ApiError(
      'C9999',
      'The search took too long and was stopped. Narrow it (a longer keyword, more filters) or try again.',
      null,
    );
  }
  if ((unavailable = databaseUnavailable(error)) !== null) {
    request.log.error({ err: error, reason: unavailable }, 'database unavailable: answered 503');
    return new ApiError(
      'C9998',
      `The service's database cannot take requests right now (${unavailable}). Retry after the time in Retry-After; a write sent with an Idempotency-Key is safe to send again.`,
      null,
      {
        'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
      },
    );
  }
  request.log.error({ err: error }, 'unhandled error');
  return new ApiError(
    'C9999',
    'The server could not complete the request. Try again later; if it persists, report the request id.',
    null,
  );
}

/**
 * One error body everywhere (docs/api.md ErrorResponse): ApiErrors as they are, validation failures as
 * C0005/C0002, other client errors by status, and anything unexpected as a generic C9999 that is
 * logged with the request id and never echoed.
 */
export const errorHandlerPlugin = fp(
  async (app, opts: { clock: () => number }) => {
    // A second router that knows every path, to tell 405 (path exists, method does not) from 404.
    const paths = FindMyWay({ ignoreTrailingSlash: false });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        try {
          paths.on(method as HTTPMethod, route.url, () => undefined);
        } catch {
          // The same method and path registered twice (Fastify's own HEAD routes): nothing to add.
        }
      }
    });

    app.setErrorHandler((error: FastifyError, request, reply) =>
      sendError(reply, apiErrorOf(error, request), opts.clock()),
    );

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // Messages name the path as the client sent it (`/v1/...` is routed as `/api/v1/...`).
      const sent = request.originalUrl.split('?')[0] ?? '/';
      const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => paths.find(m, path) !== null);
      if (allowed.length > 0 && request.method === 'OPTIONS') {
        // A preflight the CORS plugin did not answer (no allowed origins, or not this one): 204 with no CORS
        // headers, which the browser reads as a refusal; never a 405 the spec's clients would have to parse.
        return reply.status(204).header('Allow', allowed.join(', ')).send();
      }
      if (allowed.length > 0) {
        const error = new ApiError(
          'C0012',
          `Method ${request.method} is not allowed on ${sent}; allowed: ${allowed.join(', ')}`,
          'method',
          {
            Allow: allowed.join(', '),
          },
        );
        return sendError(reply, error, opts.clock());
      }
      return sendError(reply, new ApiError('C0008', `No resource at ${request.method} ${sent}`, 'path'), opts.clock());
    });
  },
  { name: 'error-handler' },
);
