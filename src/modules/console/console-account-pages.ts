/**
 * The console's pages before signing in: sign-in, sign-up and sign-out, the forgotten password and its mailed reset
 * link, and the mailed address confirmation. Each form checks its own form token, since each answers a bad one on its
 * own page; a signed-in user's pages are in console-user-pages.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { passwordProblem } from '../accounts/password-policy.js';
import { endCredentialsOfAccount } from '../apps/app-credentials.js';
import { hasHiddenCharacters } from '../../shared/text-input.js';
import { ForgotPasswordForm, ResetPasswordForm, SignInForm, SignUpForm, TokenOnlyForm } from './console-forms.js';
import type { ConsoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';
import { fill } from './console-text.js';

const HANDLE = /^[A-Za-z0-9_-]{1,64}$/;
export const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,100}\.[^\s@]{1,60}$/;
const hide = true;
/** A page reached through a mailed link: its secret. */
const LinkQuery = Type.Object({ token: Type.Optional(Type.String()) });

/** Sends the mail that confirms a user's address (also from the signed-in pages, which send it again). */
export function addressConfirmation(kit: ConsoleKit, opts: ConsoleOptions) {
  return async (request: FastifyRequest, userId: number, email: string): Promise<void> => {
    const t = kit.text(request);
    const secret = await opts.accountLinks.issue(userId, email, 'verify');
    const link = new URL(`/console/confirm-email?token=${secret}`, opts.publicBaseUrl).toString();
    opts.mailer.send({ to: email, subject: t.mail.confirmSubject, text: fill(t.mail.confirmBody, { email, link }) });
  };
}

export const accountPages: FastifyPluginAsyncTypebox<{ kit: ConsoleKit; opts: ConsoleOptions }> = async (
  app,
  { kit, opts },
) => {
  const { accounts, sessions } = opts;
  const { render } = kit;
  const mailConfirmation = addressConfirmation(kit, opts);
  /** The reset page of a link that is used, replaced or past its time. */
  const deadLink = (request: FastifyRequest, reply: FastifyReply) =>
    render(
      request,
      reply,
      'reset-password',
      { pageTitle: kit.text(request).mail.resetTitle, user: null, error: kit.text(request).mail.linkDead },
      410,
    );

  app.get(
    '/console/sign-in',
    { schema: { hide, querystring: Type.Object({ reset: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      if (await sessions.user(request)) return reply.redirect('/console/apps', 303);
      const t = kit.text(request);
      return render(request, reply, 'sign-in', {
        pageTitle: t.signIn,
        user: null,
        signUpOpen: opts.signUpOpen,
        ...(request.query.reset === 'done' ? { notice: t.mail.resetDone } : {}),
      });
    },
  );

  app.post('/console/sign-in', { schema: { hide, body: SignInForm } }, async (request, reply) => {
    const t = kit.text(request);
    const form = request.body ?? {};
    const again = (status: number, error: string) =>
      render(
        request,
        reply,
        'sign-in',
        { pageTitle: t.signIn, user: null, signUpOpen: opts.signUpOpen, email: form.email, error },
        status,
      );
    if (request.validationError) return again(400, t.invalid);
    if (!sessions.csrfValid(request, form.csrf_token)) return again(403, t.expired);
    const result = await sessions.signIn(request, reply, form.email, form.password);
    if (result.kind === 'throttled') return again(429, t.tooMany);
    if (result.kind === 'refused') return again(401, t.badCredentials);
    return reply.redirect('/console/apps', 303);
  });

  app.post('/console/sign-out', { schema: { hide, body: TokenOnlyForm } }, async (request, reply) => {
    if (request.validationError || !sessions.csrfValid(request, request.body?.csrf_token))
      return reply.redirect('/console', 303);
    await sessions.signOut(request, reply);
    return reply.redirect('/console/sign-in', 303);
  });

  app.get('/console/sign-up', { schema: { hide } }, async (request, reply) => {
    const t = kit.text(request);
    if (!opts.signUpOpen)
      return render(request, reply, 'message', { pageTitle: t.signUp, user: null, error: t.signUpClosed }, 404);
    return render(request, reply, 'sign-up', { pageTitle: t.signUp, user: null, form: {} });
  });

  app.post('/console/sign-up', { schema: { hide, body: SignUpForm } }, async (request, reply) => {
    const t = kit.text(request);
    if (!opts.signUpOpen)
      return render(request, reply, 'message', { pageTitle: t.signUp, user: null, error: t.signUpClosed }, 404);
    const form = request.validationError ? {} : (request.body ?? {});
    const again = (status: number, error: string) =>
      render(request, reply, 'sign-up', { pageTitle: t.signUp, user: null, form, error }, status);
    if (request.validationError) return again(400, t.invalid);
    if (!sessions.csrfValid(request, form.csrf_token)) return again(403, t.expired);
    const email = (form.email ?? '').trim().toLowerCase();
    const name = (form.name ?? '').trim();
    const handle = (form.handle ?? '').trim();
    const password = form.password ?? '';
    if (!EMAIL.test(email) || !name || name.length > 100 || hasHiddenCharacters(name) || !HANDLE.test(handle))
      return again(400, t.invalid);
    const weak = await passwordProblem(password, [email, name, handle]);
    if (weak !== null) return again(400, weak === 'length' ? t.passwordLength : t.guessable);
    if (!(await sessions.signUpAllowed(request))) return again(429, t.tooMany);
    if ((await accounts.findUserByEmail(email)) || (await accounts.userIdByHandle(handle)) !== undefined)
      return again(409, t.emailTaken);
    const passwordHash = await sessions.hashPassword(password);
    const userId = await accounts.createUser({ email, name, handle, passwordHash, emailVerified: false });
    await mailConfirmation(request, userId, email);
    await sessions.start(reply, userId);
    return reply.redirect('/console/apps', 303);
  });

  // Mailed links: password reset, address confirmation

  app.get(
    '/console/forgot-password',
    { schema: { hide, querystring: Type.Object({ sent: Type.Optional(Type.String()) }) } },
    async (request, reply) =>
      render(request, reply, 'forgot-password', {
        pageTitle: kit.text(request).mail.forgotTitle,
        user: await sessions.user(request),
        sent: request.query.sent === '1',
      }),
  );

  app.post('/console/forgot-password', { schema: { hide, body: ForgotPasswordForm } }, async (request, reply) => {
    const t = kit.text(request);
    const form = request.validationError ? {} : (request.body ?? {});
    const email = (form.email ?? '').trim().toLowerCase();
    const page = (status: number, extra: Record<string, unknown>) =>
      render(
        request,
        reply,
        'forgot-password',
        { pageTitle: t.mail.forgotTitle, user: null, email: form.email, ...extra },
        status,
      );
    if (request.validationError) return page(400, { error: t.invalid });
    if (!sessions.csrfValid(request, form.csrf_token)) return page(403, { error: t.expired });
    if (!EMAIL.test(email)) return page(400, { error: t.invalid });
    // Counted whether or not an account has the address: the answer is the same either way.
    if (!(await sessions.mailAllowed(request, 'reset', email))) return page(429, { error: t.tooMany });
    const user = await accounts.findUserByEmail(email);
    if (user && user.disabled_at === null && user.password_hash) {
      const secret = await opts.accountLinks.issue(user.id, user.email, 'reset');
      const link = new URL(`/console/reset-password?token=${secret}`, opts.publicBaseUrl).toString();
      opts.mailer.send({
        to: user.email,
        subject: t.mail.resetSubject,
        text: fill(t.mail.resetBody, { email: user.email, link }),
      });
    }
    // The same answer whether an account has the address or not; a reload sends nothing more.
    return reply.redirect('/console/forgot-password?sent=1', 303);
  });

  app.get('/console/reset-password', { schema: { hide, querystring: LinkQuery } }, async (request, reply) => {
    const t = kit.text(request);
    const holder = await opts.accountLinks.holder(request.query.token, 'reset');
    if (!holder) return deadLink(request, reply);
    return render(request, reply, 'reset-password', {
      pageTitle: t.mail.resetTitle,
      user: null,
      token: request.query.token,
      email: holder.email,
    });
  });

  app.post('/console/reset-password', { schema: { hide, body: ResetPasswordForm } }, async (request, reply) => {
    const t = kit.text(request);
    const form = request.validationError ? {} : (request.body ?? {});
    const holder = await opts.accountLinks.holder(form.token, 'reset');
    if (!holder) return deadLink(request, reply);
    const again = (status: number, error: string) =>
      render(
        request,
        reply,
        'reset-password',
        { pageTitle: t.mail.resetTitle, user: null, token: form.token, email: holder.email, error },
        status,
      );
    if (!sessions.csrfValid(request, form.csrf_token)) return again(403, t.expired);
    const user = await accounts.findUserById(holder.userId);
    const next = form.password ?? '';
    const weak = await passwordProblem(next, [holder.email, user?.name ?? '', user?.handle ?? '']);
    if (weak !== null) return again(400, weak === 'length' ? t.passwordLength : t.guessable);
    const reset = await opts.accountLinks.resetPassword(
      form.token,
      await sessions.hashPassword(next),
      (trx, userId, now) =>
        endCredentialsOfAccount(
          trx,
          userId,
          'the address was proven by a password reset; the account had never confirmed it',
          now,
        ),
    );
    if (!reset) return deadLink(request, reply);
    if (reset.ended) {
      // Whoever made the account without its address keeps nothing: every instance refuses the ended keys and grants now.
      for (const keyId of reset.ended.keyIds) opts.appKeys.forgetKey(keyId);
      for (const grantId of reset.ended.grantIds) opts.tokens.forgetGrant(grantId);
    }
    // Every session of the account has ended, this browser's too: it signs in with the new password.
    await sessions.signOut(request, reply);
    return reply.redirect('/console/sign-in?reset=done', 303);
  });

  app.get('/console/confirm-email', { schema: { hide, querystring: LinkQuery } }, async (request, reply) => {
    const t = kit.text(request);
    const confirmed = await opts.accountLinks.verify(request.query.token);
    if (!confirmed)
      return render(
        request,
        reply,
        'message',
        { pageTitle: t.mail.confirmTitle, user: await sessions.user(request), error: t.mail.linkDead },
        410,
      );
    // The account read after the confirmation: a signed-in page no longer asks for it.
    return render(request, reply, 'message', {
      pageTitle: t.mail.confirmTitle,
      user: await sessions.user(request),
      notice: fill(t.mail.confirmed, { email: confirmed.email }),
    });
  });
};
