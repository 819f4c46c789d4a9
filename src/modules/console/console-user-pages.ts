/**
 * A signed-in user's own pages: the password, the address confirmation sent again, and the apps the user has granted
 * access (each disconnected at once). Behind the signed-in pages' guard (console-guard.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { passwordProblem } from '../accounts/password-policy.js';
import { addressConfirmation } from './console-account-pages.js';
import { PasswordForm, TokenOnlyForm } from './console-forms.js';
import type { ConsoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';

const hide = true;

export const userPages: FastifyPluginAsyncTypebox<{ kit: ConsoleKit; opts: ConsoleOptions }> = async (
  app,
  { kit, opts },
) => {
  const { sessions, oauth } = opts;
  const { render } = kit;
  const mailConfirmation = addressConfirmation(kit, opts);

  app.post('/console/confirm-email/send', { schema: { hide, body: TokenOnlyForm } }, async (request, reply) => {
    const user = request.consoleUser!;
    const t = kit.text(request);
    if (user.email_verified) return reply.redirect('/console/apps', 303);
    if (!(await sessions.mailAllowed(request, 'verify', user.email))) {
      return render(request, reply, 'message', { pageTitle: t.mail.confirmTitle, user, error: t.tooMany }, 429);
    }
    await mailConfirmation(request, user.id, user.email);
    return render(request, reply, 'message', { pageTitle: t.mail.confirmTitle, user, notice: t.mail.confirmSent });
  });

  app.get('/console/password', { schema: { hide } }, async (request, reply) =>
    render(request, reply, 'password', {
      pageTitle: kit.text(request).changePassword,
      user: request.consoleUser,
      section: 'password',
    }),
  );

  app.post('/console/password', { schema: { hide, body: PasswordForm } }, async (request, reply) => {
    const user = request.consoleUser!;
    const t = kit.text(request);
    const form = request.body ?? {};
    const again = (status: number, error: string) =>
      render(request, reply, 'password', { pageTitle: t.changePassword, user, section: 'password', error }, status);
    const next = form.password ?? '';
    const weak = await passwordProblem(next, [user.email, user.name, user.handle]);
    if (weak !== null) return again(400, weak === 'length' ? t.passwordLength : t.guessable);
    const changed = await sessions.changePassword(request, reply, user, form.current ?? '', next);
    if (changed === 'throttled') return again(429, t.tooMany);
    if (changed === 'refused') return again(401, t.badCredentials);
    return render(request, reply, 'password', {
      pageTitle: t.changePassword,
      user,
      section: 'password',
      notice: t.passwordChanged,
    });
  });

  // Connected apps

  app.get('/console/connected', { schema: { hide } }, async (request, reply) => {
    const user = request.consoleUser!;
    return render(request, reply, 'connected', {
      pageTitle: kit.text(request).connected,
      user,
      section: 'connected',
      grants: await oauth.userGrants(user.id),
    });
  });

  app.post(
    '/console/connected/:grantId/revoke',
    { schema: { hide, params: Type.Object({ grantId: Type.String() }), body: TokenOnlyForm } },
    async (request, reply) => {
      const grant = (await oauth.userGrants(request.consoleUser!.id)).find((g) => g.id === request.params.grantId);
      if (!grant) return kit.notFound(request, reply);
      // Its refresh and access tokens stop now, on every instance.
      await opts.tokens.revokeGrant(grant.id, 'disconnected by the user in the console');
      return reply.redirect('/console/connected', 303);
    },
  );
};
