import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Helmet's security headers on every response. The middleware is built once: @fastify/helmet builds it
 * again for every request, which made up about a fifth of the request pipeline's time. The HTML pages and
 * /docs set their own Content-Security-Policy, so there is no global one.
 */
export const securityHeadersPlugin = fp(async (app, opts: { hsts: boolean }) => {
  const apply = helmet({ contentSecurityPolicy: false, hsts: opts.hsts });
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
}, { name: 'security-headers' });
