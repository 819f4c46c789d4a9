import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * The headers helmet sets with these options. With the Content-Security-Policy off, none of them depends on
 * the request, so helmet's middleware runs once, at start, against a response that only records them.
 */
function helmetHeaders(options: { hsts: boolean }): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number) { headers[name] = String(value); },
    removeHeader(name: string) { delete headers[name]; },
  };
  let finished = false;
  helmet({ contentSecurityPolicy: false, hsts: options.hsts })(
    {} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
      if (err) throw err instanceof Error ? err : new Error(String(err));
      finished = true;
    },
  );
  if (!finished) throw new Error('helmet did not finish synchronously; its headers cannot be computed once');
  return headers;
}

/**
 * Helmet's security headers on every response. Helmet decides them; they are computed once and added to
 * each reply as a fixed set (running the middleware per request, as @fastify/helmet does, made up about
 * a fifth of the request pipeline's time). The HTML pages and /docs set their own Content-Security-Policy,
 * so there is no global one.
 */
export const securityHeadersPlugin = fp(async (app, opts: { hsts: boolean }) => {
  const headers = helmetHeaders(opts);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}, { name: 'security-headers' });
