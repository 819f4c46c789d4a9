/**
 * Sign-in for the service's own pages (the OAuth sign-in and consent pages, the developer console): one
 * session per browser in a secure, HttpOnly, SameSite=Lax cookie over the whole site, so signing in once
 * serves both; passwords checked with argon2id behind the sign-in throttle; and a form token that every form
 * carries: an HMAC, under a key only the service holds, of the session (or, before sign-in, of a random cookie of
 * the browser's), compared in constant time. A cookie planted from a sibling site cannot forge it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../../shared/keys.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { LoginThrottle } from './login-throttle.js';
import type { OAuthRepository } from './oauth-repository.js';
import { hashPassword, verifyPassword, type PasswordCost } from '../../shared/passwords.js';

const SESSION_COOKIE = 'svc_session';
const SESSION_MS = 12 * 3_600_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** The longest e-mail address (RFC 5321's path limit) and password any account can have. */
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;
/** Links mailed to one address per throttle window (LOGIN_FAILURE_WINDOW_SECONDS): a reset, a confirmation sent again. */
const MAILS_PER_ACCOUNT = 3;

export type SignInResult = { kind: 'ok'; userId: number } | { kind: 'refused' } | { kind: 'throttled' };

export class WebSessions {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly oauth: OAuthRepository,
    private readonly accounts: AccountsRepository,
    private readonly throttle: LoginThrottle,
    private readonly clock: () => number,
    private readonly secure: boolean,
    private readonly passwordCost: PasswordCost,
    /** The key of form tokens (derived from the key-encryption key). */
    private readonly formKey: Buffer,
  ) {
    // Over https the browser's cookie is `__Host-`: only this exact origin, over TLS, can set it.
    this.browserCookie = secure ? '__Host-svc_csrf' : 'svc_csrf';
  }

  private readonly browserCookie: string;

  /** A new password's hash at the service's cost (PASSWORD_HASH_* settings). */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password, this.passwordCost);
  }

  /** The signed-in user, or null. */
  async user(request: FastifyRequest) {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return null;
    const userId = await this.oauth.sessionUser(hashSecret(token), this.clock());
    const user = userId === null ? undefined : await this.accounts.findUserById(userId);
    return user && user.disabled_at === null ? user : null;
  }

  /**
   * Checks e-mail and password. The attempt is counted before the slow password check, so parallel guesses
   * cannot outrun the limit; unknown accounts are checked against a dummy hash, so timing tells nothing.
   */
  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    emailInput: string | undefined,
    password: string | undefined,
  ): Promise<SignInResult> {
    const email = (emailInput ?? '').trim().toLowerCase();
    // No account has a longer address or password: refused before anything is counted or stored.
    if (email.length > MAX_EMAIL || (password ?? '').length > MAX_PASSWORD) return { kind: 'refused' };
    const reservation = await this.throttle.reserve(email, request.ip);
    if (!reservation) return { kind: 'throttled' };
    const user = email ? await this.accounts.findUserByEmail(email) : undefined;
    this.dummyHash ??= this.hashPassword(randomBytes(16).toString('hex'));
    const hash = user?.password_hash ?? (await this.dummyHash);
    const passwordOk = await verifyPassword(hash, password ?? '');
    // A disabled account is refused as a wrong password is: the form tells nobody which accounts exist or are disabled.
    if (!user || !user.password_hash || !passwordOk || user.disabled_at !== null) return { kind: 'refused' };
    await this.throttle.release(reservation);
    await this.start(reply, user.id);
    return { kind: 'ok', userId: user.id };
  }

  /**
   * Changes the signed-in user's password after checking the current one behind the sign-in throttle (so the
   * form cannot be used to guess it), then ends every session of the user, on every browser, and starts a new
   * one for this browser: whoever held another session (a stolen cookie) is signed out.
   */
  async changePassword(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; email: string; password_hash: string | null },
    current: string,
    next: string,
  ): Promise<'ok' | 'refused' | 'throttled'> {
    if (current.length > MAX_PASSWORD) return 'refused';
    const reservation = await this.throttle.reserve(user.email, request.ip);
    if (!reservation) return 'throttled';
    if (!user.password_hash || !(await verifyPassword(user.password_hash, current))) return 'refused';
    await this.throttle.release(reservation);
    await this.accounts.setPassword(user.id, await this.hashPassword(next));
    await this.oauth.deleteSessionsOf(user.id);
    await this.start(reply, user.id);
    return 'ok';
  }

  /** Whether this address may try another sign-up now (the throttle's per-address limit, every attempt counted). */
  signUpAllowed(request: FastifyRequest): Promise<boolean> {
    return this.throttle.signUpAllowed(request.ip);
  }

  /** Whether this browser may have another link mailed to `email` now (3 per address and window, and the per-client limit). */
  mailAllowed(request: FastifyRequest, kind: 'reset' | 'verify', email: string): Promise<boolean> {
    return this.throttle.mailAllowed(kind, email, request.ip, MAILS_PER_ACCOUNT);
  }

  /** Whether this browser's address may have another client metadata document fetched now (login-throttle.ts). */
  metadataFetchAllowed(request: FastifyRequest): Promise<boolean> {
    return this.throttle.metadataFetchAllowed(request.ip);
  }

  /** Whether this client address may register another client now (login-throttle.ts). */
  registrationAllowed(request: FastifyRequest): Promise<boolean> {
    return this.throttle.registrationAllowed(request.ip);
  }

  /** Starts a session for `userId` (after sign-in or sign-up). */
  async start(reply: FastifyReply, userId: number): Promise<void> {
    const session = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.oauth.createSession(hashSecret(session), userId, now, now + SESSION_MS);
    reply.setCookie(SESSION_COOKIE, session, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      maxAge: SESSION_MS / 1000,
    });
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await this.oauth.deleteSession(hashSecret(token));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /**
   * The form token for this browser: bound to its session when it has one, else to its own random cookie (set when it
   * has none, for the sign-in and sign-up forms).
   */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string {
    let binding = this.binding(request);
    if (binding === null) {
      const browser = randomBytes(32).toString('base64url');
      reply.setCookie(this.browserCookie, browser, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure });
      // The same request may render a form before the browser has the cookie: the next read sees it.
      request.cookies[this.browserCookie] = browser;
      binding = `browser:${browser}`;
    }
    return this.formToken(binding);
  }

  csrfValid(request: FastifyRequest, submitted: string | undefined): boolean {
    const binding = this.binding(request);
    if (binding === null || !submitted) return false;
    const a = Buffer.from(this.formToken(binding));
    const b = Buffer.from(submitted);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** What this browser's form tokens are bound to: its session cookie, else its own cookie; null with neither. */
  private binding(request: FastifyRequest): string | null {
    const session = request.cookies[SESSION_COOKIE];
    if (session && TOKEN.test(session)) return `session:${session}`;
    const browser = request.cookies[this.browserCookie];
    return browser && TOKEN.test(browser) ? `browser:${browser}` : null;
  }

  private formToken(binding: string): string {
    return createHmac('sha256', this.formKey).update(binding).digest('base64url');
  }
}
