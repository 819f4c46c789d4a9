import { hash } from 'node:crypto';
import fp from 'fastify-plugin';
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
export const conditionalGetPlugin = fp(async (app, opts: { store: RateLimitStore }) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || request.routeOptions.config.auth !== 'apiKey') return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // A kept representation comes with its ETag already.
    const known = reply.getHeader('ETag');
    const etag = typeof known === 'string' ? known : etagOf(payload);
    reply.header('ETag', etag);
    const condition = request.headers['if-none-match'];
    if (!condition || !matches(condition, etag)) return payload;
    const charge = request.rateLimitCharge;
    if (charge) {
      await opts.store.refund(charge.key, charge.windows, charge.at);
      request.rateLimitCharge = null;
    }
    reply.code(304);
    reply.removeHeader('Content-Length');
    reply.removeHeader('Content-Type');
    return '';
  });
}, { name: 'conditional-get' });
