import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, OperationId } from '../config.js';
import {
  DAY,
  HOUR,
  MINUTE,
  type ConsumeResult,
  type RateLimitStore,
  type Window,
  type WindowState,
} from './rate-limit-store.js';
import { ApiError } from '../shared/api-error.js';
import { addRouteHook } from '../shared/route-hooks.js';
import { callerOf } from '../shared/caller.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one request of `subject` (`app:<id>` or `client:<client id>`) against the global limit, as every /api/v1
     * request is, for a route outside /api/v1 that answers for an app itself (/mcp); a spent limit throws the 429.
     */
    chargeGlobal(subject: string, reply: FastifyReply): Promise<void>;
  }
  interface FastifyContextConfig {
    /** The spec's operation identifier whose limits apply (post.create, job.publish, …). */
    rateLimitOperation?: OperationId;
  }
  interface FastifyRequest {
    /** What this request was counted against globally, so a 304 or a later 429 can give it back. */
    rateLimitCharge: Charge | null;
    /** What this request was counted against for its operation, so an invalid body can give it back. */
    operationCharge: Charge | null;
  }
}

interface Charge {
  key: string;
  windows: Window[];
  at: number;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** IETF RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers): one item per window; fixed for a set of windows. */
const policyOf = (windows: Window[]) => windows.map((w) => `"${w.name}";q=${w.limit};w=${w.ms / 1000}`).join(', ');

/** IETF RateLimit: what is left of each window and when it resets. */
const currentOf = (states: WindowState[], now: number) =>
  states.map((s) => `"${s.window.name}";r=${s.remaining};t=${seconds(s.resetAt - now)}`).join(', ');

/** Adds to the standard fields: a request under an operation limit carries the global windows and the operation's. */
function appendStandardHeaders(reply: FastifyReply, policy: string, current: string): void {
  const join = (name: string, value: string) => {
    const existing = reply.getHeader(name);
    reply.header(name, existing ? `${String(existing)}, ${value}` : value);
  };
  join('RateLimit-Policy', policy);
  join('RateLimit', current);
}

/**
 * The names the real service's guides read (X-RateLimit-Limit, -Remaining, -Reset in Unix seconds), for the tightest
 * window this request was counted in: the one with the fewest requests left (the sooner to reset on a tie). An
 * operation's windows replace the global ones' only when they are tighter.
 */
function setGuideHeaders(reply: FastifyReply, states: WindowState[]): void {
  let tightest: WindowState | undefined;
  for (const s of states)
    if (
      !tightest ||
      s.remaining < tightest.remaining ||
      (s.remaining === tightest.remaining && s.resetAt < tightest.resetAt)
    )
      tightest = s;
  if (!tightest) return;
  const shown = reply.getHeader('X-RateLimit-Remaining');
  if (shown !== undefined && Number(shown) <= tightest.remaining) return;
  reply.header('X-RateLimit-Limit', String(tightest.window.limit));
  reply.header('X-RateLimit-Remaining', String(tightest.remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(tightest.resetAt / 1000)));
}

type OwnPreHandler = (this: unknown, request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function tooMany(result: ConsumeResult, now: number, scope?: OperationId): ApiError {
  const blocking = result.blocking!;
  const retryAfter = seconds(blocking.resetAt - now);
  const what = scope ? `operation ${scope}` : 'this app';
  return new ApiError(
    'C0010',
    `Rate limit exceeded: ${what} may make ${blocking.window.limit} requests per ${blocking.window.name.split('-').pop()}; retry in ${retryAfter} s`,
    blocking.window.name,
    { 'Retry-After': String(retryAfter), ...(scope ? { 'X-SVC-RateLimit-Scope': scope } : {}) },
  );
}

/** Runs `then` with the store's answer: at once when the store answers at once. */
function whenCounted(
  counted: ConsumeResult | Promise<ConsumeResult>,
  then: (result: ConsumeResult) => void,
  fail: (err: Error) => void,
): void {
  if (counted instanceof Promise) counted.then(then, fail);
  else then(counted);
}

/**
 * The spec's limits. The global limit counts every /api/v1 request of an app (an API-key app, or the
 * OAuth client of a Bearer token) right after authentication; an operation limit counts, per app and
 * user, the requests that passed validation and reach the operation. A refused request counts nowhere.
 * Each check is attached only to the routes it applies to.
 *
 * The operation limit is decided before the route's own preHandlers, which read the body and decode its
 * images (the costliest work a request can ask for): a spent limit refuses before any of it is done. A body
 * that then turns out invalid gives the operation's count back, so only requests that pass validation count.
 */
export const rateLimitPlugin = fp(
  async (app, opts: { store: RateLimitStore; limits: Config['rateLimits']; clock: () => number }) => {
    const { store, limits, clock } = opts;
    const globalWindows: Window[] = [
      { name: 'minute', limit: limits.globalPerMinute, ms: MINUTE },
      { name: 'day', limit: limits.globalPerDay, ms: DAY },
    ];
    const globalPolicy = policyOf(globalWindows);
    const operationWindows = (op: OperationId): Window[] => [
      { name: `${op}-minute`, limit: limits.operations[op].perMinute, ms: MINUTE },
      { name: `${op}-hour`, limit: limits.operations[op].perHour, ms: HOUR },
      { name: `${op}-day`, limit: limits.operations[op].perDay, ms: DAY },
    ];

    app.decorateRequest('rateLimitCharge', null);
    app.decorateRequest('operationCharge', null);
    app.addHook('onClose', async () => {
      await store.close();
    });

    /** Counts a request of `subject` against the global windows: the headers set, then `done` with the 429 or nothing. */
    const consumeGlobal = (subject: string, reply: FastifyReply, done: (err?: Error) => void) => {
      const now = clock();
      const key = `global:${subject}`;
      whenCounted(
        store.consume(key, globalWindows, now),
        (result) => {
          appendStandardHeaders(reply, globalPolicy, currentOf(result.windows, now));
          setGuideHeaders(reply, result.windows);
          if (!result.allowed) return done(tooMany(result, now));
          reply.request.rateLimitCharge = { key, windows: globalWindows, at: now };
          let remaining = Number.POSITIVE_INFINITY;
          for (const w of result.windows) remaining = Math.min(remaining, w.remaining);
          reply.header('X-SVC-RateLimit-Remaining', String(remaining));
          done();
        },
        done,
      );
    };

    const countGlobal = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const subject = callerOf(request);
      if (!subject) return done();
      consumeGlobal(subject, reply, done);
    };

    app.decorate(
      'chargeGlobal',
      (subject: string, reply: FastifyReply) =>
        new Promise<void>((resolve, reject) => {
          consumeGlobal(subject, reply, (err) => (err ? reject(err) : resolve()));
        }),
    );

    const countOperation = (op: OperationId) => {
      const windows = operationWindows(op);
      const policy = policyOf(windows);
      return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (!request.token) return done();
        const now = clock();
        const key = `op:${op}:${request.token.clientId}:${request.token.userId}`;
        whenCounted(
          store.consume(key, windows, now),
          (result) => {
            appendStandardHeaders(reply, policy, currentOf(result.windows, now));
            setGuideHeaders(reply, result.windows);
            if (result.allowed) {
              request.operationCharge = { key, windows, at: now };
              reply.header('X-SVC-RateLimit-Scope-Remaining', String(result.windows[0]!.remaining));
              return done();
            }
            const charge = request.rateLimitCharge;
            request.rateLimitCharge = null;
            const refused = tooMany(result, now, op);
            if (!charge) return done(refused);
            store.refund(charge.key, charge.windows, charge.at).then(() => done(refused), done);
          },
          done,
        );
      };
    };

    /** A route's own preHandler (the body stage), run after the operation was counted: if it fails, the count goes back. */
    const givingBackOnFailure = (hook: OwnPreHandler, url: string): OwnPreHandler => {
      // Callback-style hooks would need their own wrapping; the body stages are async, and a new kind fails loudly here.
      if (hook.length > 2)
        throw new Error(`${url}: an operation route's own preHandler must be async (request, reply)`);
      return async function (this: unknown, request, reply) {
        try {
          await hook.call(this, request, reply);
        } catch (err) {
          const charge = request.operationCharge;
          request.operationCharge = null;
          if (charge) await store.refund(charge.key, charge.windows, charge.at);
          throw err;
        }
      };
    };

    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/v1/')) addRouteHook(route, 'onRequest', countGlobal);
      const op = route.config?.rateLimitOperation;
      if (!op) return;
      const own = [route.preHandler ?? []].flat() as OwnPreHandler[];
      route.preHandler = [countOperation(op), ...own.map((hook) => givingBackOnFailure(hook, route.url))];
    });
  },
  { name: 'rate-limit' },
);
