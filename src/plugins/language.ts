import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import vary from 'vary';
import { negotiateLocale, resolveTag, type Locale } from '../shared/locale.js';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/**
 * Negotiates the response language and says so in Content-Language and Vary: the `lang` query parameter when it names
 * a supported language (the real service's guides write it on every call; it wins over the Accept-Language a browser
 * adds by itself), else Accept-Language, else Korean. A `lang` answer is kept apart by its URL.
 */
export const languagePlugin = fp(
  async (app) => {
    app.decorateRequest('locale', 'ko');
    // Clients send the same few Accept-Language values over and over: parse each once.
    const negotiated = new LRUCache<string, Locale>({ max: 1_000 });
    const localeFor = (header: string | undefined): Locale => {
      if (header === undefined) return negotiateLocale(header);
      let locale = negotiated.get(header);
      if (locale === undefined) {
        locale = negotiateLocale(header);
        negotiated.set(header, locale);
      }
      return locale;
    };
    app.addHook('onRequest', (request, reply, done) => {
      const lang = (request.query as Record<string, unknown> | undefined)?.lang;
      const asked = typeof lang === 'string' ? lang : Array.isArray(lang) ? String(lang[0]) : undefined;
      request.locale = (asked && resolveTag(asked.trim())) || localeFor(request.headers['accept-language']);
      reply.header('Content-Language', request.locale);
      // Added to what is there: CORS's `Origin` (set before this hook) must stay, or a cache would serve one origin's
      // Access-Control-Allow-Origin to another.
      reply.header('Vary', vary.append(String(reply.getHeader('Vary') ?? ''), 'Accept-Language'));
      done();
    });
  },
  { name: 'language' },
);
