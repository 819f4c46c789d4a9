/**
 * The developer console under /console: builders sign up and in with the accounts of the OAuth
 * sign-in, create apps, get their keys (shown once, stored hashed), rotate them with an overlap, revoke them,
 * describe the app for the consent page, read its audit trail, and see and disconnect the apps they granted.
 *
 * Pages are rendered by Eta templates (views/console/, output escaped) in Korean or English by
 * Accept-Language, work without JavaScript, and carry a Content-Security-Policy without 'unsafe-inline'
 * (styles come from /console/static/console.css). Every form carries the form token; another user's app is 404.
 */
import fs from 'node:fs';
import cookie from '@fastify/cookie';
import { Eta } from 'eta';
import vary from 'vary';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountLinks } from '../accounts/account-links.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { AppKeyService } from '../accounts/app-key-service.js';
import { passwordProblem } from '../accounts/password-policy.js';
import {
  AppCredentials,
  CredentialError,
  endCredentialsOfAccount,
  isOverlap,
  OverlapRunningError,
} from '../apps/app-credentials.js';
import { AppRepository } from '../apps/app-repository.js';
import { latestRequests, REQUEST_FILTERS, type RequestFilter } from '../apps/request-log.js';
import { usageReport } from '../apps/usage.js';
import { CLASSES, stackedBars } from './usage-chart.js';
import { ClientRegistrationError, isHttpsOrLoopback } from '../oauth/client-admin.js';
import { previousSecretUntil, type OAuthRepository } from '../oauth/oauth-repository.js';
import { TOOLS } from '../mcp/mcp-tools.js';
import { SCOPES } from '../oauth/scopes.js';
import type { TokenService } from '../oauth/token-service.js';
import type { WebSessions } from '../oauth/web-session.js';
import type { Database } from '../../db/database.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Links } from '../../shared/links.js';
import { hasHiddenCharacters } from '../../shared/text-input.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { ConsoleReveals, type RevealKind } from './console-reveals.js';
import { registerWebhookPages } from './console-webhooks.js';
import { CONSOLE_TEXT, fill, type ConsoleLanguage } from './console-text.js';
import { languageLinks, pageLanguage } from '../../shared/page-language.js';

const VIEWS = new URL('../../../views/console/', import.meta.url);
const CSS = fs.readFileSync(new URL('console.css', VIEWS), 'utf8');
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const HANDLE = /^[A-Za-z0-9_-]{1,64}$/;
const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,100}\.[^\s@]{1,60}$/;

type Form = Record<string, string | undefined>;

/** The values of a field that may repeat (checkboxes), as the form parser gives them. */
const many = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
/** Redirect URIs, one a line. */
const lines = (value: unknown): string[] =>
  String(value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
/** The scopes a client may be given (profile:read is an alias of profile and is not offered). */
const CLIENT_SCOPES = Object.keys(SCOPES).filter((scope) => scope !== 'profile:read');
type User = NonNullable<Awaited<ReturnType<WebSessions['user']>>>;

export interface ConsoleOptions {
  database: Database;
  accounts: AccountsRepository;
  appKeys: AppKeyService;
  oauth: OAuthRepository;
  sessions: WebSessions;
  tokens: TokenService;
  /** Seals a new key or secret while it waits for the page that shows it (console-reveals.ts). */
  keyEncryptionKey: Buffer;
  signUpOpen: boolean;
  /** Apps one user may own at once (APPS_PER_BUILDER). */
  appsPerBuilder: number;
  /** The global rate limit every app has (the usage page shows what is left of it). */
  globalLimits: { perMinute: number; perDay: number };
  /** Requests each app's request log keeps. */
  requestLogPerApp: number;
  /** Password-reset and address-confirmation links, and the mail that carries them. */
  accountLinks: AccountLinks;
  mailer: Mailer;
  /** Where the console is reached: the links in mail point here. */
  publicBaseUrl: string;
  clock: () => number;
  webhooks: { endpoints: WebhookEndpoints; links: Links; allowLoopback: boolean };
}

/** At most this many web origins an app's key may be used from. */
const MAX_WEB_ORIGINS = 10;

/** The web origins of a form's lines (`https://app.example`, or http on loopback), or the first line that is not one. */
function webOrigins(value: string | undefined): { origins: string[] } | { bad: string } {
  const lines = (value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const origins: string[] = [];
  for (const line of lines) {
    let url: URL;
    try {
      url = new URL(line);
    } catch {
      return { bad: line };
    }
    if (!isHttpsOrLoopback(url) || url.origin !== line.replace(/\/$/, '') || origins.length >= MAX_WEB_ORIGINS)
      return { bad: line };
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return { origins };
}

/** An https address (or http on loopback, for development), or null for an empty field; undefined when invalid. */
function webAddress(value: string | undefined): string | null | undefined {
  const text = (value ?? '').trim();
  if (text === '') return null;
  try {
    const url = new URL(text);
    return isHttpsOrLoopback(url) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export const consoleRoutes: FastifyPluginAsync<ConsoleOptions> = async (app, opts) => {
  await app.register(cookie);
  const { accounts, oauth, sessions, clock } = opts;
  const apps = new AppRepository(opts.database.db);
  const credentials = new AppCredentials(opts.database.db);
  const reveals = new ConsoleReveals(opts.database.db, opts.keyEncryptionKey, clock);
  const eta = new Eta({ views: VIEWS.pathname, cache: true, autoEscape: true });

  const language = (request: FastifyRequest): ConsoleLanguage => pageLanguage(request, 'ko');
  const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
      time,
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

  /** A page for a signed-in user; otherwise the sign-in page. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
    const user = await sessions.user(request);
    if (!user) {
      await reply.redirect('/console/sign-in', 303);
      return null;
    }
    return user;
  }

  /** A form post: the form token must match, and the poster must be signed in. */
  async function posted(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
    const t = CONSOLE_TEXT[language(request)];
    if (!sessions.csrfValid(request, (request.body as Form | undefined)?.csrf_token)) {
      await render(request, reply, 'message', { pageTitle: t.expired, user: null, error: t.expired }, 403);
      return null;
    }
    return signedIn(request, reply);
  }

  /**
   * A form that makes or widens a credential (an app and its key, a key, a client, its redirect URIs or scopes, a
   * secret, a webhook endpoint): only an account whose address is confirmed may post it. Anyone can sign up with an
   * address they do not own; until its owner proves it, the account holds nothing that outlives the owner taking it.
   */
  async function provenPosted(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
    const user = await posted(request, reply);
    if (!user || user.email_verified) return user;
    const t = CONSOLE_TEXT[language(request)];
    await render(
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
    return null;
  }

  const notFound = (request: FastifyRequest, reply: FastifyReply, user: User) => {
    const t = CONSOLE_TEXT[language(request)];
    return render(request, reply, 'message', { pageTitle: t.notFound, user, section: 'apps' }, 404);
  };

  /** The app named in the path, if the user owns it. */
  async function ownedApp(request: FastifyRequest, user: User) {
    const id = (request.params as { appId: string }).appId;
    return /^\d{1,15}$/.test(id) ? apps.ownedApp(Number(id), user.id) : undefined;
  }

  /** A destructive form's confirmation box was ticked (the browser asks for it; a form sent without it changes nothing). */
  const confirmed = (request: FastifyRequest) => ((request.body ?? {}) as Form).confirm === 'yes';

  async function appPage(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    appId: number,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const t = CONSOLE_TEXT[language(request)];
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
              ? `${t.worksUntil}${time(expiresAt)}`
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
  async function showOnce(reply: FastifyReply, user: User, appId: number, kind: RevealKind, value: string) {
    const token = await reveals.keep(user.id, appId, kind, value);
    return reply.redirect(`/console/apps/${appId}?shown=${token}`, 303);
  }

  app.get('/console/static/console.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(CSS),
  );

  app.get('/console', { schema: { hide: true } }, async (request, reply) =>
    reply.redirect((await sessions.user(request)) ? '/console/apps' : '/console/sign-in', 303),
  );

  // Accounts

  app.get<{ Querystring: { reset?: string } }>(
    '/console/sign-in',
    { schema: { hide: true } },
    async (request, reply) => {
      if (await sessions.user(request)) return reply.redirect('/console/apps', 303);
      const t = CONSOLE_TEXT[language(request)];
      return render(request, reply, 'sign-in', {
        pageTitle: t.signIn,
        user: null,
        signUpOpen: opts.signUpOpen,
        ...(request.query.reset === 'done' ? { notice: t.mail.resetDone } : {}),
      });
    },
  );

  app.post('/console/sign-in', { schema: { hide: true } }, async (request, reply) => {
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
    const again = (status: number, error: string) =>
      render(
        request,
        reply,
        'sign-in',
        { pageTitle: t.signIn, user: null, signUpOpen: opts.signUpOpen, email: form.email, error },
        status,
      );
    if (!sessions.csrfValid(request, form.csrf_token)) return again(403, t.expired);
    const result = await sessions.signIn(request, reply, form.email, form.password);
    if (result.kind === 'throttled') return again(429, t.tooMany);
    if (result.kind === 'refused') return again(401, t.badCredentials);
    return reply.redirect('/console/apps', 303);
  });

  app.post('/console/sign-out', { schema: { hide: true } }, async (request, reply) => {
    if (!sessions.csrfValid(request, ((request.body ?? {}) as Form).csrf_token)) return reply.redirect('/console', 303);
    await sessions.signOut(request, reply);
    return reply.redirect('/console/sign-in', 303);
  });

  app.get('/console/sign-up', { schema: { hide: true } }, async (request, reply) => {
    const t = CONSOLE_TEXT[language(request)];
    if (!opts.signUpOpen)
      return render(request, reply, 'message', { pageTitle: t.signUp, user: null, error: t.signUpClosed }, 404);
    return render(request, reply, 'sign-up', { pageTitle: t.signUp, user: null, form: {} });
  });

  app.post('/console/sign-up', { schema: { hide: true } }, async (request, reply) => {
    const t = CONSOLE_TEXT[language(request)];
    if (!opts.signUpOpen)
      return render(request, reply, 'message', { pageTitle: t.signUp, user: null, error: t.signUpClosed }, 404);
    const form = (request.body ?? {}) as Form;
    const again = (status: number, error: string) =>
      render(request, reply, 'sign-up', { pageTitle: t.signUp, user: null, form, error }, status);
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

  /** A page's address with a mailed link's secret. */
  const linkTo = (path: string, secret: string) => new URL(`${path}?token=${secret}`, opts.publicBaseUrl).toString();

  async function mailConfirmation(request: FastifyRequest, userId: number, email: string): Promise<void> {
    const t = CONSOLE_TEXT[language(request)];
    const secret = await opts.accountLinks.issue(userId, email, 'verify');
    opts.mailer.send({
      to: email,
      subject: t.mail.confirmSubject,
      text: fill(t.mail.confirmBody, { email, link: linkTo('/console/confirm-email', secret) }),
    });
  }

  app.get<{ Querystring: { sent?: string } }>(
    '/console/forgot-password',
    { schema: { hide: true } },
    async (request, reply) =>
      render(request, reply, 'forgot-password', {
        pageTitle: CONSOLE_TEXT[language(request)].mail.forgotTitle,
        user: await sessions.user(request),
        sent: request.query.sent === '1',
      }),
  );

  app.post('/console/forgot-password', { schema: { hide: true } }, async (request, reply) => {
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
    const email = (form.email ?? '').trim().toLowerCase();
    const page = (status: number, extra: Record<string, unknown>) =>
      render(
        request,
        reply,
        'forgot-password',
        { pageTitle: t.mail.forgotTitle, user: null, email: form.email, ...extra },
        status,
      );
    if (!sessions.csrfValid(request, form.csrf_token)) return page(403, { error: t.expired });
    if (!EMAIL.test(email)) return page(400, { error: t.invalid });
    // Counted whether or not an account has the address: the answer is the same either way.
    if (!(await sessions.mailAllowed(request, 'reset', email))) return page(429, { error: t.tooMany });
    const user = await accounts.findUserByEmail(email);
    if (user && user.disabled_at === null && user.password_hash) {
      const secret = await opts.accountLinks.issue(user.id, user.email, 'reset');
      opts.mailer.send({
        to: user.email,
        subject: t.mail.resetSubject,
        text: fill(t.mail.resetBody, { email: user.email, link: linkTo('/console/reset-password', secret) }),
      });
    }
    // The same answer whether an account has the address or not; a reload sends nothing more.
    return reply.redirect('/console/forgot-password?sent=1', 303);
  });

  app.get<{ Querystring: { token?: string } }>(
    '/console/reset-password',
    { schema: { hide: true } },
    async (request, reply) => {
      const t = CONSOLE_TEXT[language(request)];
      const holder = await opts.accountLinks.holder(request.query.token, 'reset');
      if (!holder)
        return render(
          request,
          reply,
          'reset-password',
          { pageTitle: t.mail.resetTitle, user: null, error: t.mail.linkDead },
          410,
        );
      return render(request, reply, 'reset-password', {
        pageTitle: t.mail.resetTitle,
        user: null,
        token: request.query.token,
        email: holder.email,
      });
    },
  );

  app.post('/console/reset-password', { schema: { hide: true } }, async (request, reply) => {
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
    const holder = await opts.accountLinks.holder(form.token, 'reset');
    if (!holder)
      return render(
        request,
        reply,
        'reset-password',
        { pageTitle: t.mail.resetTitle, user: null, error: t.mail.linkDead },
        410,
      );
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
    if (!reset)
      return render(
        request,
        reply,
        'reset-password',
        { pageTitle: t.mail.resetTitle, user: null, error: t.mail.linkDead },
        410,
      );
    if (reset.ended) {
      // Whoever made the account without its address keeps nothing: every instance refuses the ended keys and grants now.
      for (const keyId of reset.ended.keyIds) opts.appKeys.forgetKey(keyId);
      for (const grantId of reset.ended.grantIds) opts.tokens.forgetGrant(grantId);
    }
    // Every session of the account has ended, this browser's too: it signs in with the new password.
    await sessions.signOut(request, reply);
    return reply.redirect('/console/sign-in?reset=done', 303);
  });

  app.get<{ Querystring: { token?: string } }>(
    '/console/confirm-email',
    { schema: { hide: true } },
    async (request, reply) => {
      const t = CONSOLE_TEXT[language(request)];
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
    },
  );

  app.post('/console/confirm-email/send', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const t = CONSOLE_TEXT[language(request)];
    if (user.email_verified) return reply.redirect('/console/apps', 303);
    if (!(await sessions.mailAllowed(request, 'verify', user.email))) {
      return render(request, reply, 'message', { pageTitle: t.mail.confirmTitle, user, error: t.tooMany }, 429);
    }
    await mailConfirmation(request, user.id, user.email);
    return render(request, reply, 'message', { pageTitle: t.mail.confirmTitle, user, notice: t.mail.confirmSent });
  });

  app.get('/console/password', { schema: { hide: true } }, async (request, reply) => {
    const user = await signedIn(request, reply);
    if (!user) return reply;
    return render(request, reply, 'password', {
      pageTitle: CONSOLE_TEXT[language(request)].changePassword,
      user,
      section: 'password',
    });
  });

  app.post('/console/password', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
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

  // Apps

  /** The user's apps, with how many more they may make. */
  async function appsPage(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const t = CONSOLE_TEXT[language(request)];
    const list = (await apps.appsOf(user.id)).map((a) => ({ id: a.id, name: a.name, createdAt: Number(a.created_at) }));
    const max = opts.appsPerBuilder;
    return render(
      request,
      reply,
      'apps',
      {
        pageTitle: t.apps,
        user,
        section: 'apps',
        apps: list,
        quota: fill(t.appsQuota, { used: list.length, max }),
        full: list.length >= max ? fill(t.appsFull, { max }) : null,
        ...extra,
      },
      status,
    );
  }

  app.get('/console/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = await signedIn(request, reply);
    if (!user) return reply;
    return appsPage(request, reply, user);
  });

  app.post('/console/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = await provenPosted(request, reply);
    if (!user) return reply;
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
    const name = (form.name ?? '').trim();
    const description = (form.description ?? '').trim();
    if (!name || name.length > 100 || hasHiddenCharacters(name))
      return appsPage(request, reply, user, { error: t.nameRule }, 400);
    if (description.length > 500) return appsPage(request, reply, user, { error: t.descriptionRule }, 400);
    const now = clock();
    const appId = await apps.createApp(name, description, user.id, now, opts.appsPerBuilder);
    if (appId === null)
      return appsPage(request, reply, user, { error: fill(t.appsFull, { max: opts.appsPerBuilder }) }, 409);
    await apps.record(appId, user.id, 'app.created', name, now);
    const apiKey = await credentials.createKey(appId, user.id, now);
    return showOnce(reply, user, appId, 'key', apiKey);
  });

  app.get('/console/apps/:appId', { schema: { hide: true } }, async (request, reply) => {
    const user = await signedIn(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    const token = (request.query as { shown?: unknown }).shown;
    if (typeof token !== 'string') return appPage(request, reply, user, owned.id);
    const made = await reveals.take(token, user.id, owned.id);
    if (!made || made.kind === 'signing-secret')
      return appPage(request, reply, user, owned.id, { notice: CONSOLE_TEXT[language(request)].shownOnce });
    return appPage(
      request,
      reply,
      user,
      owned.id,
      made.kind === 'key' ? { newKey: made.value } : { newSecret: made.value },
    );
  });

  app.post('/console/apps/:appId', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    const t = CONSOLE_TEXT[language(request)];
    const form = (request.body ?? {}) as Form;
    const name = (form.name ?? '').trim();
    const description = (form.description ?? '').trim();
    const homepageUrl = webAddress(form.homepage_url);
    const privacyUrl = webAddress(form.privacy_url);
    const origins = webOrigins(form.web_origins);
    const fieldErrors: Record<string, string> = {};
    if ('bad' in origins) fieldErrors.web_origins = `${t.webOriginRule} (${origins.bad.slice(0, 200)})`;
    if (!name || name.length > 100 || hasHiddenCharacters(name)) fieldErrors.name = t.nameRule;
    if (description.length > 500) fieldErrors.description = t.descriptionRule;
    if (homepageUrl === undefined) fieldErrors.homepage_url = t.webAddressRule;
    if (privacyUrl === undefined) fieldErrors.privacy_url = t.webAddressRule;
    if (
      Object.keys(fieldErrors).length > 0 ||
      homepageUrl === undefined ||
      privacyUrl === undefined ||
      'bad' in origins
    ) {
      // The page again with what was typed, each field that is wrong marked with its rule.
      const profileDraft = {
        name: form.name ?? '',
        description: form.description ?? '',
        homepageUrl: form.homepage_url ?? '',
        privacyUrl: form.privacy_url ?? '',
        webOrigins: form.web_origins ?? '',
      };
      return appPage(request, reply, user, owned.id, { error: t.fixBelow, fieldErrors, profileDraft }, 400);
    }
    await apps.updateProfile(owned.id, { name, description, homepageUrl, privacyUrl, webOrigins: origins.origins });
    await apps.record(
      owned.id,
      user.id,
      'app.updated',
      [name, homepageUrl ?? '', privacyUrl ?? '', ...origins.origins].filter(Boolean).join(' · '),
      clock(),
    );
    // Every instance reads the app's keys again, with their new origins (cache/revocations.ts).
    opts.appKeys.forgetApp(owned.id);
    return appPage(request, reply, user, owned.id, { notice: t.saved });
  });

  app.post('/console/apps/:appId/delete', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    if (!confirmed(request))
      return appPage(request, reply, user, owned.id, { error: CONSOLE_TEXT[language(request)].confirmFirst }, 400);
    const { keyIds, grantIds } = await credentials.deleteApp(owned.id, user.id, clock());
    for (const keyId of keyIds) opts.appKeys.forgetKey(keyId);
    for (const grantId of grantIds) opts.tokens.forgetGrant(grantId);
    return reply.redirect('/console/apps', 303);
  });

  app.post('/console/apps/:appId/keys/rotate', { schema: { hide: true } }, async (request, reply) => {
    const user = await provenPosted(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    const overlap = String(((request.body ?? {}) as Form).overlap ?? '');
    if (!isOverlap(overlap))
      return appPage(request, reply, user, owned.id, { error: CONSOLE_TEXT[language(request)].invalid }, 400);
    const { apiKey } = await credentials.rotateKey(owned.id, overlap, user.id, clock());
    // The old keys' new end (now, with no overlap) holds at once on every instance.
    opts.appKeys.forgetApp(owned.id);
    return showOnce(reply, user, owned.id, 'key', apiKey);
  });

  app.post('/console/apps/:appId/keys/:keyId/revoke', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    const keyId = (request.params as { keyId: string }).keyId;
    if (!/^\d{1,15}$/.test(keyId)) return notFound(request, reply, user);
    if (!confirmed(request))
      return appPage(request, reply, user, owned.id, { error: CONSOLE_TEXT[language(request)].confirmFirst }, 400);
    try {
      await credentials.revokeKey(owned.id, Number(keyId), user.id, clock());
      opts.appKeys.forgetKey(Number(keyId));
    } catch (err) {
      if (err instanceof CredentialError) return notFound(request, reply, user);
      throw err;
    }
    return reply.redirect(`/console/apps/${owned.id}`, 303);
  });

  // Request log

  app.get<{ Params: { appId: string }; Querystring: { status?: string } }>(
    '/console/apps/:appId/requests',
    { schema: { hide: true } },
    async (request, reply) => {
      const user = await signedIn(request, reply);
      if (!user) return reply;
      const owned = await ownedApp(request, user);
      if (!owned) return notFound(request, reply, user);
      const t = CONSOLE_TEXT[language(request)];
      const asked = request.query.status ?? 'all';
      const filter: RequestFilter = (REQUEST_FILTERS as readonly string[]).includes(asked)
        ? (asked as RequestFilter)
        : 'all';
      const requests = (await latestRequests(opts.database.db, owned.id, filter)).map((r) => ({
        ...r,
        when: new Date(r.at).toISOString().replace('T', ' ').slice(0, 19),
      }));
      return render(request, reply, 'requests', {
        pageTitle: `${t.rq.requests}: ${owned.name}`,
        user,
        section: 'apps',
        app: { id: owned.id, name: owned.name },
        requests,
        filter,
        filters: REQUEST_FILTERS,
        note: t.rq.note.replace('{n}', opts.requestLogPerApp.toLocaleString('en')),
      });
    },
  );

  // Usage

  app.get('/console/apps/:appId/usage', { schema: { hide: true } }, async (request, reply) => {
    const user = await signedIn(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    const t = CONSOLE_TEXT[language(request)];
    const report = await usageReport(opts.database.db, owned.id, clock());
    const { perMinute, perDay } = opts.globalLimits;
    return render(request, reply, 'usage', {
      pageTitle: `${t.usage}: ${owned.name}`,
      user,
      section: 'apps',
      app: { id: owned.id, name: owned.name },
      report,
      classes: CLASSES,
      minuteChart: stackedBars(report.minutes, (at) => new Date(at).toISOString().slice(11, 16), 10),
      dayChart: stackedBars(report.days, (at) => new Date(at).toISOString().slice(5, 10), 5),
      budget: {
        perMinute,
        perDay,
        minuteLeft: Math.max(0, perMinute - report.thisMinute),
        dayLeft: Math.max(0, perDay - report.today),
      },
    });
  });

  // The app's OAuth client

  /**
   * Runs a change to the app's client: a new secret goes to the page that shows it once, a notice is shown; a
   * refused setting (a bad redirect URI, no scope, a rotation during an overlap) shows the page again with why.
   */
  async function clientChange(
    request: FastifyRequest,
    reply: FastifyReply,
    change: (appId: number, user: User) => Promise<{ newSecret?: string; notice?: string }>,
  ) {
    const user = await provenPosted(request, reply);
    if (!user) return reply;
    const owned = await ownedApp(request, user);
    if (!owned) return notFound(request, reply, user);
    try {
      const { newSecret, notice } = await change(owned.id, user);
      if (newSecret) return await showOnce(reply, user, owned.id, 'secret', newSecret);
      return await appPage(request, reply, user, owned.id, { notice });
    } catch (err) {
      const t = CONSOLE_TEXT[language(request)];
      if (err instanceof OverlapRunningError)
        return appPage(request, reply, user, owned.id, { error: `${t.overlapRunning}${time(err.until)}` }, 409);
      if (err instanceof ClientRegistrationError) {
        // The client form again with what was typed (every URI, the type, the scopes), the URIs marked with the reason.
        const form = (request.body ?? {}) as Record<string, unknown>;
        const clientDraft = {
          redirectUris: typeof form.redirect_uris === 'string' ? form.redirect_uris : '',
          scopes: many(form.scopes),
          public: form.type === 'public',
        };
        return appPage(
          request,
          reply,
          user,
          owned.id,
          { error: t.fixBelow, fieldErrors: { redirect_uris: err.message }, clientDraft },
          400,
        );
      }
      if (err instanceof CredentialError) return appPage(request, reply, user, owned.id, { error: err.message }, 400);
      throw err;
    }
  }

  app.post('/console/apps/:appId/client', { schema: { hide: true } }, async (request, reply) =>
    clientChange(request, reply, async (appId, user) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const created = await credentials.createClient(
        appId,
        { redirectUris: lines(form.redirect_uris), scopes: many(form.scopes), public: form.type === 'public' },
        user.id,
        clock(),
      );
      return { newSecret: created.clientSecret ?? undefined };
    }),
  );

  app.post('/console/apps/:appId/client/update', { schema: { hide: true } }, async (request, reply) =>
    clientChange(request, reply, async (appId, user) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      await credentials.updateClient(appId, lines(form.redirect_uris), many(form.scopes), user.id, clock());
      return { notice: CONSOLE_TEXT[language(request)].saved };
    }),
  );

  app.post('/console/apps/:appId/client/rotate-secret', { schema: { hide: true } }, async (request, reply) =>
    clientChange(request, reply, async (appId, user) => {
      const overlap = String(((request.body ?? {}) as Form).overlap ?? '');
      if (!isOverlap(overlap)) throw new CredentialError(CONSOLE_TEXT[language(request)].invalid);
      const client = await oauth.clientOfApp(appId);
      if (!client) throw new CredentialError(CONSOLE_TEXT[language(request)].invalid);
      return { newSecret: await credentials.rotateClientSecret(client.clientId, overlap, user.id, clock()) };
    }),
  );

  app.post('/console/apps/:appId/client/end-previous-secret', { schema: { hide: true } }, async (request, reply) =>
    clientChange(request, reply, async (appId, user) => {
      const t = CONSOLE_TEXT[language(request)];
      const client = await oauth.clientOfApp(appId);
      if (!client || !(await credentials.endPreviousSecret(client.clientId, user.id, clock())))
        throw new CredentialError(t.noPreviousSecret);
      return { notice: t.previousEnded };
    }),
  );

  // Webhooks (console-webhooks.ts)

  registerWebhookPages(
    app,
    {
      render,
      signedIn,
      provenPosted,
      ownedApp,
      notFound,
      confirmed,
      reveals,
      text: (request) => CONSOLE_TEXT[language(request)],
    },
    { ...opts.webhooks, database: opts.database.db, clock },
  );

  // Connected apps

  app.get('/console/connected', { schema: { hide: true } }, async (request, reply) => {
    const user = await signedIn(request, reply);
    if (!user) return reply;
    return render(request, reply, 'connected', {
      pageTitle: CONSOLE_TEXT[language(request)].connected,
      user,
      section: 'connected',
      grants: await oauth.userGrants(user.id),
    });
  });

  app.post('/console/connected/:grantId/revoke', { schema: { hide: true } }, async (request, reply) => {
    const user = await posted(request, reply);
    if (!user) return reply;
    const grantId = (request.params as { grantId: string }).grantId;
    const grant = (await oauth.userGrants(user.id)).find((g) => g.id === grantId);
    if (!grant) return notFound(request, reply, user);
    // Its refresh and access tokens stop now, on every instance.
    await opts.tokens.revokeGrant(grant.id, 'disconnected by the user in the console');
    return reply.redirect('/console/connected', 303);
  });
};
