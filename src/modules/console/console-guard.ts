/**
 * The guard of the console's signed-in pages, declared once for their scope (console-routes.ts) as a preHandler: a
 * form must carry the form token (else the "expired" page, 403), the visitor must be signed in (else the sign-in page),
 * a form that makes or widens a credential needs an account whose address is confirmed (route config `proven`: else
 * 403), and an app named in the path must be the user's (else 404). A form body its schema refuses is the "invalid"
 * page (400). What it finds is on the request: `consoleUser`, `consoleApp`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessions } from '../oauth/web-session.js';
import type { ConsoleKit } from './console-kit.js';
import { fill } from './console-text.js';

export type ConsoleUser = NonNullable<Awaited<ReturnType<WebSessions['user']>>>;
export type ConsoleApp = NonNullable<Awaited<ReturnType<ConsoleKit['apps']['ownedApp']>>>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a console page (console-guard.ts). */
    consoleUser: ConsoleUser | null;
    /** The app the path names, which the user owns. */
    consoleApp: ConsoleApp | null;
  }
  interface FastifyContextConfig {
    /**
     * The form makes or widens a credential (an app and its key, a key, a client, its redirect URIs or scopes, a secret,
     * a webhook endpoint): only an account whose address is confirmed may post it. Anyone can sign up with an address
     * they do not own; until its owner proves it, the account holds nothing that outlives the owner taking it.
     */
    proven?: boolean;
  }
}

/** Every console route: a form body its schema refuses is kept for the page to answer (an HTML page, not JSON). */
export function consoleRoutesAnswerTheirForms(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
  });
}

/** A console form post whose form token is valid (the "expired" page sent otherwise). */
async function formTokenValid(
  request: FastifyRequest,
  reply: FastifyReply,
  kit: ConsoleKit,
  sessions: WebSessions,
  user: ConsoleUser | null = null,
): Promise<boolean> {
  if (sessions.csrfValid(request, (request.body as { csrf_token?: string } | undefined)?.csrf_token)) return true;
  const t = kit.text(request);
  await kit.render(request, reply, 'message', { pageTitle: t.expired, user, error: t.expired }, 403);
  return false;
}

/** Adds the guard to the signed-in pages' scope. */
export function guardSignedInPages(scope: FastifyInstance, kit: ConsoleKit, sessions: WebSessions): void {
  scope.decorateRequest('consoleUser', null);
  scope.decorateRequest('consoleApp', null);
  scope.addHook('preHandler', async (request, reply) => {
    if (request.method === 'POST' && !(await formTokenValid(request, reply, kit, sessions))) return reply;
    const user = await sessions.user(request);
    if (!user) return reply.redirect('/console/sign-in', 303);
    request.consoleUser = user;
    const t = kit.text(request);
    if (request.method === 'POST' && request.routeOptions.config.proven && !user.email_verified) {
      return kit.render(
        request,
        reply,
        'message',
        {
          pageTitle: t.mail.confirmTitle,
          user,
          section: 'apps',
          error: fill(t.mail.unprovenRefused, { email: user.email }),
        },
        403,
      );
    }
    const appId = (request.params as { appId?: string }).appId;
    if (appId !== undefined) {
      const owned = /^\d{1,15}$/.test(appId) ? await kit.apps.ownedApp(Number(appId), user.id) : undefined;
      if (!owned) return kit.notFound(request, reply);
      request.consoleApp = owned;
    }
    if (request.validationError)
      return kit.render(
        request,
        reply,
        'message',
        { pageTitle: t.invalid, user, section: 'apps', error: t.invalid },
        400,
      );
  });
}
