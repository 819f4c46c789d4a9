import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, OperationId } from '../config.js';
import { DAY, HOUR, MINUTE, type ConsumeResult, type RateLimitStore, type Window, type WindowState } from '../rate-limit/rate-limit-store.js';
import { ApiError } from '../shared/api-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's operation identifier whose limits apply (post.create, job.publish, …). */
    rateLimitOperation?: OperationId;
  }
  interface FastifyRequest {
    /** What this request was counted against globally, so a 304 or a later 429 can give it back. */
    rateLimitCharge: { key: string; windows: Window[]; at: number } | null;
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers), one item per window. */
function addStandardHeaders(reply: FastifyReply, states: WindowState[], now: number): void {
  const policy = states.map((s) => `"${s.window.name}";q=${s.window.limit};w=${s.window.ms / 1000}`).join(', ');
  const current = states.map((s) => `"${s.window.name}";r=${s.remaining};t=${seconds(s.resetAt - now)}`).join(', ');
  const join = (name: string, value: string) => {
    const existing = reply.getHeader(name);
    reply.header(name, existing ? `${String(existing)}, ${value}` : value);
  };
  join('RateLimit-Policy', policy);
  join('RateLimit', current);
}

function tooMany(result: ConsumeResult, now: number, scope?: OperationId): ApiError {
  const blocking = result.blocking!;
  const retryAfter = seconds(blocking.resetAt - now);
  const what = scope ? `operation ${scope}` : 'this app';
  return new ApiError('C0010',
    `Rate limit exceeded: ${what} may make ${blocking.window.limit} requests per ${blocking.window.name.split('-').pop()}; retry in ${retryAfter} s`,
    blocking.window.name,
    { 'Retry-After': String(retryAfter), ...(scope ? { 'X-SVC-RateLimit-Scope': scope } : {}) });
}

/**
 * The spec's limits. The global limit counts every /api/v1 request of an app (an API-key app, or the
 * OAuth client of a Bearer token) right after authentication; an operation limit counts, per app and
 * user, the requests that passed validation and reach the operation. A refused request counts nowhere.
 */
export const rateLimitPlugin = fp(async (app, opts: { store: RateLimitStore; limits: Config['rateLimits']; clock: () => number }) => {
  const { store, limits, clock } = opts;
  const globalWindows: Window[] = [
    { name: 'minute', limit: limits.globalPerMinute, ms: MINUTE },
    { name: 'day', limit: limits.globalPerDay, ms: DAY },
  ];
  const operationWindows = (op: OperationId): Window[] => [
    { name: `${op}-minute`, limit: limits.operations[op].perMinute, ms: MINUTE },
    { name: `${op}-hour`, limit: limits.operations[op].perHour, ms: HOUR },
    { name: `${op}-day`, limit: limits.operations[op].perDay, ms: DAY },
  ];

  app.decorateRequest('rateLimitCharge', null);
  app.addHook('onClose', async () => { await store.close(); });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/api/v1/')) return;
    const subject = request.apiApp ? `app:${request.apiApp.appId}` : request.token ? `client:${request.token.clientId}` : null;
    if (!subject) return;
    const now = clock();
    const key = `global:${subject}`;
    const result = await store.consume(key, globalWindows, now);
    addStandardHeaders(reply, result.windows, now);
    if (!result.allowed) throw tooMany(result, now);
    request.rateLimitCharge = { key, windows: globalWindows, at: now };
    reply.header('X-SVC-RateLimit-Remaining', String(Math.min(...result.windows.map((w) => w.remaining))));
  });

  app.addHook('preHandler', async (request, reply) => {
    const op = request.routeOptions.config.rateLimitOperation;
    if (!op || !request.token) return;
    const now = clock();
    const windows = operationWindows(op);
    const result = await store.consume(`op:${op}:${request.token.clientId}:${request.token.userId}`, windows, now);
    addStandardHeaders(reply, result.windows, now);
    if (!result.allowed) {
      const charge = request.rateLimitCharge;
      if (charge) {
        await store.refund(charge.key, charge.windows, charge.at);
        request.rateLimitCharge = null;
      }
      throw tooMany(result, now, op);
    }
    reply.header('X-SVC-RateLimit-Scope-Remaining', String(result.windows[0]!.remaining));
  });
}, { name: 'rate-limit' });
