import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../shared/api-error.js';
import type { MediaStore } from './media-store.js';

/** GET /media/<key>: stored images with long-lived caching (keys are never reused). */
export const mediaRoutes: FastifyPluginAsync<{ store: MediaStore }> = async (app, { store }) => {
  app.get('/media/*', { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const object = await store.get(key);
    if (!object) throw new ApiError('C0008', `No media at /media/${key}`, 'path');
    return reply
      .type(object.contentType)
      .headers({
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
        // Images are meant to be shown on builders' own sites: any origin may embed them.
        'Cross-Origin-Resource-Policy': 'cross-origin',
      })
      .send(object.bytes);
  });
};
