/**
 * The service's front pages: a landing page at `/` that says what the service is and where to go (the reference, the
 * guides, the console, the OpenAPI document, the MCP endpoint), the guides of docs/ at /guides, the icon, and the
 * language switch every page links to (it keeps the choice in a cookie and goes back).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Eta } from 'eta';
import fs from 'node:fs';
import { ICON_SVG } from '../../shared/brand.js';
import { LANGUAGE_COOKIE, languageLinks, pageLanguage, type PageLanguage } from '../../shared/page-language.js';
import { guide, guideNames } from './guides.js';
import { SITE_TEXT } from './site-text.js';

const VIEWS = new URL('../../../views/site/', import.meta.url);
const CSS = fs.readFileSync(new URL('site.css', VIEWS), 'utf8');
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";
const YEAR_SECONDS = 31_536_000;

/**
 * Where the switch may send a visitor back: a path of this service, never another origin. A control character, a
 * space or a backslash anywhere is refused (browsers drop a tab or a newline and read `/\t/evil.example` as
 * `//evil.example`), and what is left must resolve to this origin; the path is given back as the URL parser wrote it.
 */
const unsafe = (c: string) => c <= ' ' || c === '\u007f' || c === '\\';

function localPath(back: unknown): string {
  if (typeof back !== 'string' || !back.startsWith('/') || [...back].some(unsafe)) return '/';
  const origin = 'http://this-service.invalid';
  try {
    const url = new URL(back, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

export const siteRoutes: FastifyPluginAsync<{ version: string; secureCookies: boolean }> = async (app, opts) => {
  const eta = new Eta({ views: VIEWS.pathname, cache: true, autoEscape: true });

  function render(
    request: FastifyRequest,
    reply: FastifyReply,
    view: string,
    data: Record<string, unknown>,
    status = 200,
  ) {
    const lang: PageLanguage = pageLanguage(request, 'en');
    const html = eta.render(`./${view}`, {
      lang,
      t: SITE_TEXT[lang],
      version: opts.version,
      languages: languageLinks(request.url, lang),
      ...data,
    });
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .headers({
        'Content-Security-Policy': CSP,
        'Cache-Control': 'no-cache',
        Vary: 'Accept-Language, Cookie',
        'Referrer-Policy': 'same-origin',
      })
      .send(html);
  }

  app.get('/', { schema: { hide: true } }, async (request, reply) => render(request, reply, 'landing', {}));

  app.get('/guides', { schema: { hide: true } }, async (request, reply) =>
    render(request, reply, 'guides', { guides: guideNames().map((name) => guide(name)!) }),
  );

  app.get<{ Params: { name: string } }>('/guides/:name', { schema: { hide: true } }, async (request, reply) => {
    const found = guide(request.params.name);
    if (!found)
      return render(
        request,
        reply,
        'guides',
        { guides: guideNames().map((name) => guide(name)!), missing: request.params.name.slice(0, 100) },
        404,
      );
    return render(request, reply, 'guide', { guide: found });
  });

  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(ICON_SVG),
    );
  }
  app.get('/site/static/site.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(CSS),
  );

  app.get<{ Querystring: { to?: string; back?: string } }>(
    '/language',
    { schema: { hide: true } },
    async (request, reply) => {
      const to = request.query.to === 'ko' || request.query.to === 'en' ? request.query.to : null;
      if (to) {
        reply.header(
          'Set-Cookie',
          `${LANGUAGE_COOKIE}=${to}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly${opts.secureCookies ? '; Secure' : ''}`,
        );
      }
      return reply.header('Cache-Control', 'no-store').redirect(localPath(request.query.back), 303);
    },
  );
};
