import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from '../shared/route-hooks.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';

/** The strong ETag of a response body (the representation cache keeps it with the body). */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
}

function matches(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * Public reads carry a strong ETag computed from the body (the same for every caller with the same
 * answer); `If-None-Match` with it gets 304 and no body, and the request is given back to the global limit.
 */
export const conditionalGetPlugin = fp(
  async (app, opts: { store: RateLimitStore }) => {
    const answer = (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: Error | null, payload?: unknown) => void,
    ) => {
      if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload)))
        return done(null, payload);
      // The body as the bytes it is sent as, encoded once: hashing the text encodes it, and so would sending it
      // (and counting its length), each a pass over a page of mostly Korean text.
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      // A kept representation comes with its ETag already.
      const known = reply.getHeader('ETag');
      const etag = typeof known === 'string' ? known : etagOf(body);
      reply.header('ETag', etag);
      const condition = request.headers['if-none-match'];
      if (!condition || !matches(condition, etag)) return done(null, body);
      reply.code(304);
      reply.removeHeader('Content-Length');
      reply.removeHeader('Content-Type');
      const charge = request.rateLimitCharge;
      if (!charge) return done(null, '');
      request.rateLimitCharge = null;
      opts.store.refund(charge.key, charge.windows, charge.at).then(
        () => done(null, ''),
        (err: Error) => done(err),
      );
    };
    app.addHook('onRoute', (route) => {
      if (route.method === 'GET' && route.config?.auth === 'apiKey') addRouteHook(route, 'onSend', answer);
    });
  },
  { name: 'conditional-get' },
);
