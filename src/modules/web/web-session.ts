/**
 * Sign-in for the service's own pages (the OAuth sign-in and consent pages, the developer console): one
 * session per browser in a secure, HttpOnly, SameSite=Lax cookie over the whole site, so signing in once
 * serves both; passwords checked with argon2id behind the sign-in throttle; and a form token (double-submit
 * cookie, compared in constant time) that every form carries.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../../shared/keys.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { LoginThrottle } from '../oauth/login-throttle.js';
import type { OAuthRepository } from '../oauth/oauth-repository.js';
import { hashPassword, verifyPassword, type PasswordCost } from '../../shared/passwords.js';

const SESSION_COOKIE = 'svc_session';
const CSRF_COOKIE = 'svc_csrf';
const SESSION_MS = 12 * 3_600_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** The longest e-mail address (RFC 5321's path limit) and password any account can have. */
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;

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
  ) {}

  /** A new password's hash at the service's cost (PASSWORD_HASH_* settings). */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password, this.passwordCost);
  }

  /** The signed-in user, or null. */
  async user(request: FastifyRequest) {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return null;
    const userId = await this.oauth.sessionUser(hashSecret(token), this.clock());
    return userId === null ? null : (await this.accounts.findUserById(userId)) ?? null;
  }

  /**
   * Checks e-mail and password. The attempt is counted before the slow password check, so parallel guesses
   * cannot outrun the limit; unknown accounts are checked against a dummy hash, so timing tells nothing.
   */
  async signIn(request: FastifyRequest, reply: FastifyReply, emailInput: string | undefined, password: string | undefined): Promise<SignInResult> {
    const email = (emailInput ?? '').trim().toLowerCase();
    // No account has a longer address or password: refused before anything is counted or stored.
    if (email.length > MAX_EMAIL || (password ?? '').length > MAX_PASSWORD) return { kind: 'refused' };
    const reservation = await this.throttle.reserve(email, request.ip);
    if (!reservation) return { kind: 'throttled' };
    const user = email ? await this.accounts.findUserByEmail(email) : undefined;
    this.dummyHash ??= this.hashPassword(randomBytes(16).toString('hex'));
    const hash = user?.password_hash ?? await this.dummyHash;
    const passwordOk = await verifyPassword(hash, password ?? '');
    if (!user || !user.password_hash || !passwordOk) return { kind: 'refused' };
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
    request: FastifyRequest, reply: FastifyReply, user: { id: number; email: string; password_hash: string | null }, current: string, next: string,
  ): Promise<'ok' | 'refused' | 'throttled'> {
    if (current.length > MAX_PASSWORD) return 'refused';
    const reservation = await this.throttle.reserve(user.email, request.ip);
    if (!reservation) return 'throttled';
    if (!user.password_hash || !await verifyPassword(user.password_hash, current)) return 'refused';
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

  /** Starts a session for `userId` (after sign-in or sign-up). */
  async start(reply: FastifyReply, userId: number): Promise<void> {
    const session = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.oauth.createSession(hashSecret(session), userId, now, now + SESSION_MS);
    reply.setCookie(SESSION_COOKIE, session, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure, maxAge: SESSION_MS / 1000 });
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await this.oauth.deleteSession(hashSecret(token));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /** The form token of this browser, set as a cookie when it has none. */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[CSRF_COOKIE];
    if (existing && TOKEN.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    reply.setCookie(CSRF_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure });
    // The same request may render a form before the browser has the cookie: the next read sees it.
    request.cookies[CSRF_COOKIE] = token;
    return token;
  }

  csrfValid(request: FastifyRequest, submitted: string | undefined): boolean {
    const cookie = request.cookies[CSRF_COOKIE];
    if (!cookie || !submitted) return false;
    const a = Buffer.from(cookie);
    const b = Buffer.from(submitted);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
