import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleForms } from './helpers/console-forms.js';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { Browser, fetchSend, hiddenField, type Sent } from './helpers/oauth-browser.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.js';
import { ENGINES } from './helpers/test-database.js';

const WINDOW_MS = 15 * 60_000;

/**
 * An address nobody has proven cannot be used to act (docs/security.md, "Signing up with someone else's address").
 * Anyone can sign up in the console with an address they do not own. Such an account may not consent to OAuth
 * clients, nor create apps, keys, clients or webhooks. An account from before that rule may hold credentials; when
 * the owner of the address takes it back through the mailed reset link, every one of them stops, and
 * `email_verified` is true only once the owner has proven the address. The whole story runs over HTTP, with the
 * mail read from a real SMTP server, on both engines.
 */
describe.each(ENGINES)("an account signed up with someone else's address, on %s", (engine) => {
  let s: ListeningApp;
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    s = await startListeningApp(engine, {
      SMTP_URL: inbox.url,
      CONSOLE_SIGN_UP: 'open',
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
    });
  });
  afterAll(async () => {
    await s?.close();
    await inbox?.close();
  });

  /** The attacker signs up with `email` in the console, never confirming it; the browser stays signed in. */
  async function signUpAs(email: string, handle: string): Promise<ConsoleForms> {
    const signUp = new Browser(fetchSend(s.base));
    const page = await signUp.request('GET', '/console/sign-up');
    const res = await signUp.request('POST', '/console/sign-up', {
      csrf_token: hiddenField(page.body, 'csrf_token'),
      email,
      name: 'Not the owner',
      handle,
      password: 'an attacker chose this phrase 7',
    });
    expect(res.status, res.body).toBe(303);
    const forms = new ConsoleForms(s.base);
    await forms.signIn({ email, password: 'an attacker chose this phrase 7' });
    return forms;
  }

  /** An authorize request for the demo client, and its PKCE verifier. */
  function authorizeUrl(scope: string) {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: s.demo.client.clientId,
      redirect_uri: s.demo.client.redirectUri,
      scope,
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    return { url: `/oauth/authorize?${query.toString()}`, verifier };
  }

  const tokenRequest = (fields: Record<string, string>, client = s.demo.client) =>
    fetch(`${s.base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams(fields),
    });

  const createPost = (token: string) =>
    fetch(`${s.base}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="request"\r\n\r\n{"text":"written in the owner\'s name"}\r\n--b--\r\n',
    });

  const appKeyWorks = async (key: string) =>
    (await fetch(`${s.base}/api/v1/jobs?pageSize=1`, { headers: { 'x-svc-api-key': key } })).status;
  const userinfo = async (token: string) =>
    (await fetch(`${s.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<
      Record<string, unknown>
    >;
  const setVerified = (email: string, value: 0 | 1) =>
    s.db.database.db.updateTable('users').set({ email_verified: value }).where('email', '=', email).execute();

  /** The owner takes the account back: "Forgot your password?", the mail, the link, a new password. */
  async function takeBack(email: string, password: string): Promise<void> {
    const browser = new Browser(fetchSend(s.base));
    const resets = () => inbox.to(email).filter((m) => m.subject === '비밀번호 재설정');
    const before = resets().length;
    const forgot = await browser.request('GET', '/console/forgot-password');
    expect(
      (
        await browser.request('POST', '/console/forgot-password', {
          csrf_token: hiddenField(forgot.body, 'csrf_token'),
          email,
        })
      ).status,
    ).toBe(303);
    await expect.poll(() => resets().length, { timeout: 10_000, interval: 20 }).toBe(before + 1);
    const mail = resets().at(-1)!;
    const link = linkIn(mail, `${s.base}/console/reset-password?token=`).slice(s.base.length);
    const form = await browser.request('GET', link);
    const done = await browser.request('POST', '/console/reset-password', {
      csrf_token: hiddenField(form.body, 'csrf_token'),
      token: hiddenField(form.body, 'token'),
      password,
    });
    expect([done.status, done.headers.location]).toEqual([303, '/console/sign-in?reset=done']);
  }

  it('may not consent to an OAuth client nor create an app while its address is unconfirmed', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const email = 'owner-one@example.com';
    const attacker = await signUpAs(email, 'squatter-one');

    // The console: no app is made, and the page says why.
    const apps = await attacker.browser.request('GET', '/console/apps');
    expect(apps.body).toContain('id="apps-unproven"');
    expect(apps.body).not.toContain('action="/console/apps"');
    const created = await attacker.post('/console/apps', { name: 'Squatter app' });
    expect(created.status).toBe(403);
    expect(created.body).toContain('아무것도 바뀌지 않았습니다');
    const owned = await s.db.database.db
      .selectFrom('apps')
      .innerJoin('users', 'users.id', 'apps.owner_user_id')
      .select('apps.id')
      .where('users.email', '=', email)
      .execute();
    expect(owned).toEqual([]);

    // OAuth: signed in (the console's session serves the OAuth pages), the authorize request shows a page and never
    // redirects to the client with a code; the consent form posted anyway is refused the same way.
    const { url } = authorizeUrl('profile email post:write');
    const asked = await attacker.browser.request('GET', url);
    expect(asked.status).toBe(403);
    expect(asked.headers.location).toBeUndefined();
    expect(asked.body).toContain('owner-one@example.com');
    const forced = await attacker.browser.request('POST', '/oauth/authorize', {
      csrf_token: hiddenField(apps.body, 'csrf_token'),
      authorize_query: url.slice('/oauth/authorize?'.length),
      decision: 'allow',
    });
    expect(forced.status).not.toBe(303);
    expect(forced.headers.location).toBeUndefined();
    const grants = await s.db.database.db
      .selectFrom('oauth_grants')
      .innerJoin('users', 'users.id', 'oauth_grants.user_id')
      .select('oauth_grants.id')
      .where('users.email', '=', email)
      .execute();
    expect(grants).toEqual([]);
    const codes = await s.db.database.db
      .selectFrom('oauth_authorization_codes')
      .innerJoin('users', 'users.id', 'oauth_authorization_codes.user_id')
      .select('oauth_authorization_codes.client_id')
      .where('users.email', '=', email)
      .execute();
    expect(codes).toEqual([]);
  });

  it('leaves nobody but the owner a working credential once the owner takes the account back through the mailed reset link', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const email = 'owner-two@example.com';
    const attacker = await signUpAs(email, 'squatter-two');
    // An account from before the rule: it consented and made an app, a key, a client and a webhook endpoint while the
    // console still let an unconfirmed account do so (here: while the row said confirmed), then went back to unconfirmed.
    await setVerified(email, 1);
    const { url, verifier } = authorizeUrl('profile email post:write');
    const callback = await attacker.browser.authorize(url, { email, password: 'unused: the browser is signed in' });
    const issued = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: s.demo.client.redirectUri,
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = (await issued.json()) as {
      access_token: string;
      refresh_token: string;
    };
    const { appId, apiKey } = await attacker.createApp('Squatter app');
    const client = await attacker.createClient(appId, 'https://squatter.example/cb', ['profile']);
    const endpoint = await attacker.createEndpoint(appId, 'http://127.0.0.1:9/hook');
    await setVerified(email, 0);
    expect(await appKeyWorks(apiKey)).toBe(200);
    expect((await createPost(accessToken)).status).toBe(201);
    expect((await userinfo(accessToken)).email_verified).toBe(false);

    await takeBack(email, 'the real owner picked this one 3');

    // The attacker's refresh token, access token, app key and client secret all stop, on this instance at once.
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect([refreshed.status, ((await refreshed.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const written = await createPost(accessToken);
    expect([written.status, ((await written.json()) as { code: string }).code]).toEqual([401, 'C0003']);
    expect(await appKeyWorks(apiKey)).toBe(401);
    const secretUsed = await tokenRequest(
      { grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) },
      { ...s.demo.client, clientId: client.clientId, clientSecret: client.clientSecret },
    );
    expect([secretUsed.status, ((await secretUsed.json()) as { error: string }).error]).toEqual([
      401,
      'invalid_client',
    ]);
    const hook = await s.db.database.db
      .selectFrom('webhook_endpoints')
      .select(['disabled_at', 'disabled_reason'])
      .where('id', '=', endpoint.endpointId)
      .executeTakeFirstOrThrow();
    expect(hook.disabled_at).not.toBeNull();
    // The attacker's console session ended with the reset.
    expect((await attacker.browser.request('GET', '/console/apps')).status).toBe(303);

    // The owner: signed in with the new password, the address proven by the link, the app and its audit trail there.
    const owner = new ConsoleForms(s.base);
    await owner.signIn({ email, password: 'the real owner picked this one 3' });
    const page: Sent = await owner.browser.request('GET', `/console/apps/${appId}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('id="unconfirmed"');
    expect(page.body).toContain('credentials.ended');
    const ownerFlow = authorizeUrl('profile email');
    const ownerCallback = await owner.browser.authorize(ownerFlow.url, {
      email,
      password: 'the real owner picked this one 3',
    });
    const ownerTokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: ownerCallback.searchParams.get('code')!,
      redirect_uri: s.demo.client.redirectUri,
      code_verifier: ownerFlow.verifier,
    });
    expect(ownerTokens.status).toBe(200);
    const claims = await userinfo(((await ownerTokens.json()) as { access_token: string }).access_token);
    expect([claims.email, claims.email_verified]).toEqual([email, true]);
  });

  it('keeps an account that had confirmed its address as it was through a reset: its grants and keys still work', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const email = 'owner-three@example.com';
    const owner = await signUpAs(email, 'real-three');
    await setVerified(email, 1);
    const { apiKey } = await owner.createApp('Real app');
    const { url, verifier } = authorizeUrl('profile');
    const callback = await owner.browser.authorize(url, { email, password: 'unused' });
    const issued = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: s.demo.client.redirectUri,
      code_verifier: verifier,
    });
    const { refresh_token: refreshToken } = (await issued.json()) as { refresh_token: string };

    await takeBack(email, 'a forgetful owner chose this 5');

    expect(await appKeyWorks(apiKey)).toBe(200);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken })).status).toBe(200);
  });
});
