/**
 * The developer console under /console: builders sign up and in with the accounts of the OAuth sign-in, create apps,
 * get their keys (shown once, stored hashed), rotate them with an overlap, revoke them, describe the app for the
 * consent page, register its OAuth client and webhooks, read its audit trail, request log and usage, and see and
 * disconnect the apps they granted.
 *
 * Pages are rendered by Eta templates (views/console/, output escaped) in Korean or English by Accept-Language, work
 * without JavaScript, and carry a Content-Security-Policy without 'unsafe-inline' (styles come from
 * /console/static/console.css). One room a page group: the pages before signing in (console-account-pages.ts), and,
 * behind one guard (console-guard.ts: the form token, the session, a confirmed address where a form asks for it,
 * another user's app is 404), a user's own pages, apps and keys, the OAuth client, and webhooks.
 */
import cookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import { accountPages } from './console-account-pages.js';
import { appPages } from './console-app-pages.js';
import { clientPages } from './console-client-pages.js';
import { consoleRoutesAnswerTheirForms, guardSignedInPages } from './console-guard.js';
import { CONSOLE_CSS, consoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';
import { userPages } from './console-user-pages.js';
import { webhookPages } from './console-webhooks.js';

export type { ConsoleOptions } from './console-options.js';

export const consoleRoutes: FastifyPluginAsync<ConsoleOptions> = async (app, opts) => {
  await app.register(cookie);
  consoleRoutesAnswerTheirForms(app);
  const kit = consoleKit(opts);

  app.get('/console/static/console.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(CONSOLE_CSS),
  );

  app.get('/console', { schema: { hide: true } }, async (request, reply) =>
    reply.redirect((await opts.sessions.user(request)) ? '/console/apps' : '/console/sign-in', 303),
  );

  await app.register(accountPages, { kit, opts });
  await app.register(async (signedIn) => {
    guardSignedInPages(signedIn, kit, opts.sessions);
    for (const pages of [userPages, appPages, clientPages, webhookPages]) await signedIn.register(pages, { kit, opts });
  });
};
