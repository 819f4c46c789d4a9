import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * gzip and brotli for JSON, the OpenAPI document and pages, when the client asks (Accept-Encoding) and the
 * body is over 1 KB. Brotli at quality 4: most of its gain at a cost close to gzip's (quality 11, Node's
 * default, costs tens of milliseconds on a search page). Images are already compressed and go as they are.
 *
 * A compressed body is another byte sequence than the plain one, so its ETag becomes weak (RFC 9110 8.8.1):
 * If-None-Match still matches it (conditional-get.ts compares weakly), and no cache serves one for the other.
 */
export const compressionPlugin = fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
    // @fastify/compress compresses in a route-level onSend hook; this one is added to each route after it.
    const weakenEtag: onSendHookHandler = async (_request, reply, payload) => {
      const etag = reply.getHeader('etag');
      if (reply.getHeader('content-encoding') && typeof etag === 'string' && !etag.startsWith('W/'))
        reply.header('ETag', `W/${etag}`);
      return payload;
    };
    app.addHook('onRoute', (route) => {
      route.onSend = [...[route.onSend ?? []].flat(), weakenEtag];
    });
  },
  { name: 'compression' },
);
