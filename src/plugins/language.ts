import fp from 'fastify-plugin';
import { negotiateLocale, type Locale } from '../shared/locale.js';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** Negotiates the response language from Accept-Language and says so in Content-Language and Vary. */
export const languagePlugin = fp(async (app) => {
  app.decorateRequest('locale', 'ko');
  app.addHook('onRequest', (request, reply, done) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
    reply.header('Content-Language', request.locale);
    reply.header('Vary', 'Accept-Language');
    done();
  });
}, { name: 'language' });
