/**
 * What every console page shares: rendering a template in the visitor's language under the console's headers, the
 * words of the page, the app page (the one most forms show again), the new key or secret kept for the page that
 * shows it once, and the repositories the pages read. Made once per console (console-routes.ts).
 */
import fs from 'node:fs';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import vary from 'vary';
import { AppCredentials } from '../apps/app-credentials.js';
import { AppRepository } from '../apps/app-repository.js';
import { TOOLS } from '../mcp/mcp-tools.js';
import { previousSecretUntil } from '../oauth/oauth-repository.js';
import { SCOPES } from '../oauth/scopes.js';
import { languageLinks, pageLanguage } from '../../shared/page-language.js';
import { ConsoleReveals, type RevealKind } from './console-reveals.js';
import { CONSOLE_TEXT, type ConsoleLanguage, type ConsoleText } from './console-text.js';
import type { ConsoleOptions } from './console-options.js';

const VIEWS = new URL('../../../views/console/', import.meta.url);
export const CONSOLE_CSS = fs.readFileSync(new URL('console.css', VIEWS), 'utf8');
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The scopes a client may be given (profile:read is an alias of profile and is not offered). */
const CLIENT_SCOPES = Object.keys(SCOPES).filter((scope) => scope !== 'profile:read');

/** Times as the console shows them: to the minute, in UTC. */
export const consoleTime = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type ConsoleKit = ReturnType<typeof consoleKit>;

export function consoleKit(opts: ConsoleOptions) {
  const { oauth, sessions, clock } = opts;
  const apps = new AppRepository(opts.database.db);
  const credentials = new AppCredentials(opts.database.db);
  const reveals = new ConsoleReveals(opts.database.db, opts.keyEncryptionKey, clock);
  const eta = new Eta({ views: VIEWS.pathname, cache: true, autoEscape: true });

  const language = (request: FastifyRequest): ConsoleLanguage => pageLanguage(request, 'ko');
  const text = (request: FastifyRequest): ConsoleText => CONSOLE_TEXT[language(request)];

  function render(
    request: FastifyRequest,
    reply: FastifyReply,
    view: string,
    data: Record<string, unknown>,
    status = 200,
  ) {
    const lang = language(request);
    const html = eta.render(`./${view}`, {
      lang,
      t: CONSOLE_TEXT[lang],
      csrf: sessions.csrfToken(request, reply),
      time: consoleTime,
      date,
      languages: languageLinks(request.url, lang),
      ...data,
    });
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .headers({
        'Content-Security-Policy': CSP,
        'Cache-Control': 'no-store',
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'same-origin',
        Vary: vary.append(String(reply.getHeader('Vary') ?? ''), 'Accept-Language, Cookie'),
      })
      .send(html);
  }

  /** The page of an app the signed-in user owns, with what a form adds (a notice, an error, what was typed). */
  async function appPage(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const user = request.consoleUser!;
    const appId = request.consoleApp!.id;
    const t = text(request);
    const row = (await apps.ownedApp(appId, user.id))!;
    const now = clock();
    const keys = (await apps.keysOf(appId)).map((k) => {
      const expiresAt = k.expires_at === null ? null : Number(k.expires_at);
      const working = k.revoked_at === null && (expiresAt === null || expiresAt > now);
      const state =
        k.revoked_at !== null
          ? t.revoked
          : expiresAt === null
            ? t.working
            : working
              ? `${t.worksUntil}${consoleTime(expiresAt)}`
              : t.stopped;
      return { id: k.id, hint: k.key_hint, createdAt: Number(k.created_at), working, state };
    });
    const client = await oauth.clientOfApp(appId);
    const lang = language(request);
    return render(
      request,
      reply,
      'app',
      {
        pageTitle: row.name,
        user,
        section: 'apps',
        keys,
        audit: await apps.auditOf(appId),
        client: client && {
          clientId: client.clientId,
          public: client.secretHash === null,
          redirectUris: client.redirectUris,
          scopes: client.allowedScopes,
          // The previous secret while its overlap runs: the page offers to end it, and not to rotate again.
          previousUntil: previousSecretUntil(client, now),
        },
        scopeChoices: CLIENT_SCOPES.map((scope) => ({ scope, label: SCOPES[scope]![lang] })),
        mcp: {
          url: `${opts.publicBaseUrl}/mcp`,
          tools: TOOLS.map((tool) => ({ name: tool.name, title: tool.title, scope: tool.scope ?? null })),
        },
        app: {
          id: row.id,
          name: row.name,
          description: row.description,
          homepageUrl: row.homepage_url,
          privacyUrl: row.privacy_url,
          webOrigins: JSON.parse(row.web_origins) as string[],
        },
        ...extra,
      },
      status,
    );
  }

  /** Post/Redirect/Get: the new key or secret is kept for the app's page, which shows it once. */
  async function showOnce(request: FastifyRequest, reply: FastifyReply, kind: RevealKind, value: string) {
    const appId = request.consoleApp!.id;
    const token = await reveals.keep(request.consoleUser!.id, appId, kind, value);
    return reply.redirect(`/console/apps/${appId}?shown=${token}`, 303);
  }

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    render(
      request,
      reply,
      'message',
      { pageTitle: text(request).notFound, user: request.consoleUser ?? null, section: 'apps' },
      404,
    );

  return { apps, credentials, reveals, language, text, render, appPage, showOnce, notFound };
}
