import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import { expect } from 'vitest';
import { AccountsRepository } from '../../src/modules/accounts/accounts-repository.js';
import type { App } from '../../src/app.js';
import type { DemoManifest } from '../../src/demo/demo-generator.js';
import { Browser, injectSend, type Send, type Sent } from './oauth-browser.js';
import type { TestContext } from './test-app.js';

/**
 * The browser part of the authorization code flow with PKCE for the demo client, through `app` in the process (sign-in
 * and consent as forms): where it ended (the code) and the verifier. For `resource` (RFC 8707) when given.
 */
export function authorizationCode(
  app: App,
  client: DemoManifest['client'],
  scope: string,
  user: { email: string; password: string },
  resource?: string,
): Promise<{ callback: URL; verifier: string }> {
  return authorizationCodeThrough(injectSend(app), client, scope, user, resource);
}

/** The same through any `send`: a listening server (fetchSend), another release's process. */
export async function authorizationCodeThrough(
  send: Send,
  client: DemoManifest['client'],
  scope: string,
  user: { email: string; password: string },
  resource?: string,
): Promise<{ callback: URL; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  return {
    callback: await new Browser(send).authorize(authorizeUrl(client, scope, verifier, resource), user),
    verifier,
  };
}

/** The authorization request of `client` for `scope`, with the PKCE challenge of `verifier`. */
function authorizeUrl(
  client: { clientId: string; redirectUri: string },
  scope: string,
  verifier: string,
  resource?: string,
): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope,
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(resource ? { resource } : {}),
  });
  return `/oauth/authorize?${query.toString()}`;
}

/** The consent page a user is shown when `client` asks for `scope` (signed in as `user` on the way). */
export async function consentPage(
  app: App,
  client: { clientId: string; redirectUri: string },
  scope: string,
  user: { email: string; password: string },
): Promise<Sent> {
  const browser = new Browser(injectSend(app));
  const signIn = await browser.request('GET', authorizeUrl(client, scope, randomBytes(32).toString('base64url')));
  const page = await browser.signIn(signIn, user.email, user.password);
  return browser.request('GET', page.headers.location as string);
}

/** The access token the token endpoint gives for a code (`authorizationCode`), with the client's secret in Basic. */
export async function exchangeCode(
  send: Send,
  client: { clientId: string; clientSecret: string; redirectUri: string },
  { callback, verifier }: { callback: URL; verifier: string },
  resource?: string,
): Promise<string> {
  const res = await send(
    'POST',
    '/oauth/token',
    {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
    },
    new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      ...(resource ? { resource } : {}),
    }).toString(),
  );
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body) as { access_token: string }).access_token;
}

/**
 * An access token for `user` with `scope`, obtained through the real authorize and token endpoints; for `resource`
 * (RFC 8707) when given, else for the API.
 */
export async function accessToken(
  t: TestContext,
  scope: string,
  user: { email: string; password: string } = t.demo.user,
  resource?: string,
): Promise<string> {
  const { client } = t.demo;
  return exchangeCode(injectSend(t.app), client, await authorizationCode(t.app, client, scope, user, resource));
}

/** A user with a password and no roles anywhere. */
export async function createUser(
  t: TestContext,
  handle: string,
): Promise<{ id: number; email: string; password: string }> {
  const password = `pw-${handle}-123456`;
  const email = `${handle}@example.com`;
  const id = await new AccountsRepository(t.db.database.db, () => t.clock.now).createUser({
    email,
    name: handle,
    handle,
    passwordHash: await hashPassword(password, MIN_PASSWORD_COST),
  });
  return { id, email, password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
