import { createHash, randomBytes } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { keyEncryptionKey, SigningKeys } from '../src/modules/oauth/signing-keys.js';
import { Browser, hiddenField, type Send } from './helpers/oauth-browser.js';
import { anotherInstance, createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const verifierOf = () => randomBytes(32).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe.each(ENGINES)('OAuth security on %s', (engine) => {
  let t: TestContext;
  let send: Send;
  let client: { clientId: string; clientSecret: string; redirectUri: string };
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  beforeAll(async () => {
    t = await createTestApp(engine);
    client = t.demo.client;
    send = async (method, url, headers, body) => {
      const res = await t.app.inject({ method, url, headers, payload: body });
      return {
        status: res.statusCode,
        headers: res.headers as Record<string, string | string[] | undefined>,
        body: res.body,
      };
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const authorizePath = (overrides: Record<string, string | undefined> = {}, verifier = verifierOf()) => {
    const params: Record<string, string> = {};
    const all = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: 'profile email',
      state: 'st-1',
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
      ...overrides,
    };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) params[k] = v;
    return `/oauth/authorize?${new URLSearchParams(params).toString()}`;
  };

  async function codeFor(scope = 'profile email', browser = new Browser(send)) {
    const verifier = verifierOf();
    const callback = await browser.authorize(authorizePath({ scope }, verifier), t.demo.user);
    return { code: callback.searchParams.get('code')!, verifier, browser, callback };
  }

  const token = (
    form: Record<string, string>,
    authorization: string | null = basic(client.clientId, client.clientSecret),
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      payload: new URLSearchParams(form).toString(),
    });

  async function tokensFor(scope = 'profile email') {
    const { code, verifier } = await codeFor(scope);
    const res = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string; scope: string };
  }

  const userinfo = (accessToken: string) =>
    t.request({ method: 'GET', url: '/oauth/userinfo', headers: { authorization: `Bearer ${accessToken}` } });

  describe('authorization codes', () => {
    it('are one-time: a replay is invalid_grant and revokes the tokens issued from the code', async () => {
      const { code, verifier } = await codeFor();
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
      };
      const first = await token(form);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const replay = await token(form);
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
      expect(replay.headers['cache-control']).toBe('no-store');
      expect((await userinfo(first.json().access_token)).statusCode).toBe(401);
      const refresh = await token({ grant_type: 'refresh_token', refresh_token: first.json().refresh_token });
      expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('expire after the code lifetime', async () => {
      const { code, verifier } = await codeFor();
      t.clock.now = TEST_NOW + 301_000;
      try {
        const res = await token({
          grant_type: 'authorization_code',
          code,
          redirect_uri: client.redirectUri,
          code_verifier: verifier,
        });
        expect(res.json()).toEqual({
          error: 'invalid_grant',
          error_description: 'The authorization code is expired or already used',
        });
      } finally {
        t.clock.now = TEST_NOW;
      }
    });

    it('need the exact redirect_uri of the authorize step', async () => {
      const { code, verifier } = await codeFor();
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://localhost:8080/callback',
        code_verifier: verifier,
      });
      expect(res.json()).toMatchObject({
        error: 'invalid_grant',
        error_description: 'redirect_uri does not match the authorization request',
      });
    });

    it('need the PKCE verifier that matches the challenge', async () => {
      const { code } = await codeFor();
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
        code_verifier: verifierOf(),
      });
      expect(res.json()).toMatchObject({
        error: 'invalid_grant',
        error_description: 'code_verifier does not match the code_challenge',
      });
      const missing = await token({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri });
      expect(missing.json()).toMatchObject({
        error: 'invalid_request',
        error_description: 'code_verifier is required',
      });
    });

    it.each([
      ['42 characters', 'a'.repeat(42)],
      ['129 characters', 'a'.repeat(129)],
      ['a character outside the alphabet', `${'a'.repeat(42)}+`],
    ])('refuse a verifier of %s with invalid_request', async (_label, verifier) => {
      const res = await token({
        grant_type: 'authorization_code',
        code: 'anything',
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringContaining('43 to 128'),
      });
    });

    it('accept verifiers of exactly 43 and 128 characters', async () => {
      for (const verifier of ['A'.repeat(43), '~._-'.repeat(32)]) {
        const callback = await new Browser(send).authorize(authorizePath({}, verifier), t.demo.user);
        const res = await token({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: client.redirectUri,
          code_verifier: verifier,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    });
  });

  describe('the authorize endpoint', () => {
    it('shows an error page and never redirects for an unknown client or an unregistered redirect_uri', async () => {
      for (const overrides of [
        { client_id: 'svcc_nobody' },
        { redirect_uri: 'https://evil.example/callback' },
        { redirect_uri: undefined },
      ]) {
        const res = await send('GET', authorizePath(overrides), {});
        expect(res.status).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toContain('<h1>');
      }
    });

    it.each([
      [{ code_challenge: undefined }, 'invalid_request', 'code_challenge is required'],
      [{ code_challenge_method: 'plain' }, 'invalid_request', 'S256'],
      [{ code_challenge_method: undefined }, 'invalid_request', 'S256'],
      [{ code_challenge: 'short' }, 'invalid_request', '43'],
      [{ response_type: 'token' }, 'unsupported_response_type', 'code'],
      [{ scope: 'profile admin:everything' }, 'invalid_scope', 'admin:everything'],
      [{ scope: undefined }, 'invalid_scope', 'required'],
    ])('redirects %j with error %s, the state and iss', async (overrides, error, fragment) => {
      const res = await send('GET', authorizePath(overrides), {});
      expect(res.status).toBe(302);
      const location = new URL(res.headers.location as string);
      expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('error_description')).toContain(fragment);
      expect(location.searchParams.get('state')).toBe('st-1');
      expect(location.searchParams.get('iss')).toBe('https://api.test.example');
    });

    it('refuses scopes the client may not request', async () => {
      await registerClient(
        new OAuthRepository(t.db.database.db),
        {
          name: 'Narrow',
          redirectUris: ['https://narrow.example/cb'],
          scopes: ['profile'],
          public: false,
          clientId: 'svcc_narrow',
          clientSecret: 'narrow-secret',
        },
        TEST_NOW,
      );
      const res = await send(
        'GET',
        authorizePath({
          client_id: 'svcc_narrow',
          redirect_uri: 'https://narrow.example/cb',
          scope: 'profile post:write',
        }),
        {},
      );
      expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('invalid_scope');
    });

    it('redirects with access_denied when the user denies', async () => {
      const browser = new Browser(send);
      const callback = await browser.authorize(
        authorizePath({ scope: 'company:manage:read', state: 'deny-me' }),
        t.demo.user,
        'deny',
      );
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.get('state')).toBe('deny-me');
      expect(callback.searchParams.get('iss')).toBe('https://api.test.example');
      expect(callback.searchParams.get('code')).toBeNull();
    });

    it('refuses a consent form without its CSRF token', async () => {
      const browser = new Browser(send);
      let page = await browser.request('GET', authorizePath({ scope: 'job:manage:read' }));
      page = await browser.signIn(page, t.demo.user.email, t.demo.user.password);
      page = await browser.request('GET', page.headers.location as string);
      expect(page.body).toContain('action="/oauth/authorize"');
      const forged = await browser.request('POST', '/oauth/authorize', {
        authorize_query: hiddenField(page.body, 'authorize_query'),
        decision: 'allow',
      });
      expect(forged.status).toBe(403);
      expect(forged.headers.location).toBeUndefined();
      const wrong = await browser.request('POST', '/oauth/authorize', {
        csrf_token: 'x'.repeat(43),
        authorize_query: hiddenField(page.body, 'authorize_query'),
        decision: 'allow',
      });
      expect(wrong.status).toBe(403);
    });

    it('refuses a sign-in form without its CSRF token', async () => {
      const browser = new Browser(send);
      const page = await browser.request('GET', authorizePath());
      const res = await browser.request('POST', '/oauth/login', {
        email: t.demo.user.email,
        password: t.demo.user.password,
        authorize_query: hiddenField(page.body, 'authorize_query'),
      });
      expect(res.status).toBe(403);
      expect(browser.cookies.has('svc_session')).toBe(false);
    });

    it('serves pages that cannot be framed, with a strict CSP and HttpOnly SameSite cookies, in Korean or English', async () => {
      const browser = new Browser(send);
      const page = await browser.request('GET', authorizePath());
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).toContain('<html lang="ko">');
      expect(page.body).toContain('로그인');
      const english = await browser.request('GET', authorizePath(), undefined, { 'accept-language': 'en-US' });
      expect(english.body).toContain('Sign in');
      const signedIn = await browser.signIn(page, t.demo.user.email, t.demo.user.password);
      const cookie = [signedIn.headers['set-cookie']].flat().find((c) => c?.startsWith('svc_session='));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Secure/i);
      // One session for the whole site, as docs/oauth.md says (issue 22 row 11): the console reads it too.
      expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
      // Over https the form cookie is `__Host-`: Secure, the whole site's path, no Domain, so no sibling site sets it.
      const formCookie = [page.headers['set-cookie']].flat().find((c) => c?.includes('svc_csrf='));
      expect(formCookie).toMatch(/^__Host-svc_csrf=/);
      expect(formCookie).toMatch(/Secure/i);
      expect(formCookie).toMatch(/;\s*Path=\/(;|$)/i);
      expect(formCookie).not.toMatch(/Domain=/i);
    });

    it('answers wrong passwords and unknown accounts alike, and throttles guessing per account', async () => {
      // In a window of its own (an hour on): the counts it leaves do not throttle the other tests' sign-ins.
      const base = TEST_NOW + 3_600_000;
      t.clock.now = base;
      onTestFinished(() => {
        t.clock.now = TEST_NOW;
      });
      const browser = new Browser(send);
      const page = await browser.request('GET', authorizePath());
      const wrong = await browser.signIn(page, 'member-01@example.com', 'wrong-password');
      const unknown = await browser.signIn(page, 'nobody@example.com', 'wrong-password');
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      const message = (body: string) => /role="alert">([^<]*)</.exec(body)?.[1];
      expect(message(wrong.body)).toBe(message(unknown.body));

      const victim = 'member-02@example.com';
      for (let i = 0; i < 5; i++) expect((await browser.signIn(page, victim, `guess-${i}`)).status).toBe(401);
      const blocked = await browser.signIn(page, victim, 'guess-5');
      expect(blocked.status).toBe(429);
      // Even the right password is refused while the account is throttled.
      const demoBlocked = new Browser(send);
      const demoPage = await demoBlocked.request('GET', authorizePath());
      for (let i = 0; i < 5; i++) await demoBlocked.signIn(demoPage, t.demo.user.email, `nope-${i}`);
      expect((await demoBlocked.signIn(demoPage, t.demo.user.email, t.demo.user.password)).status).toBe(429);
      t.clock.now = base + 901_000;
      try {
        expect((await demoBlocked.signIn(demoPage, t.demo.user.email, t.demo.user.password)).status).toBe(303);
      } finally {
        t.clock.now = TEST_NOW;
      }
    });
    it('throttles guessing per client address across accounts', async () => {
      const base = TEST_NOW + 7_200_000;
      t.clock.now = base;
      onTestFinished(() => {
        t.clock.now = TEST_NOW;
      });
      const browser = new Browser(send);
      const page = await browser.request('GET', authorizePath());
      const from = { 'x-forwarded-for': '203.0.113.9' };
      const attempt = (email: string, password: string) =>
        browser.request(
          'POST',
          '/oauth/login',
          {
            email,
            password,
            csrf_token: hiddenField(page.body, 'csrf_token'),
            authorize_query: hiddenField(page.body, 'authorize_query'),
          },
          from,
        );
      // trustProxy is off, so the address is the socket's; every inject comes from 127.0.0.1.
      for (let i = 0; i < 20; i++) expect((await attempt(`spray-${i}@example.com`, 'password-1')).status).not.toBe(303);
      expect((await attempt('member-05@example.com', 'password-1')).status).toBe(429);
      t.clock.now = base + 901_000;
      try {
        expect((await attempt('member-05@example.com', 'password-1')).status).toBe(401);
      } finally {
        t.clock.now = TEST_NOW;
      }
    });
  });

  describe('client authentication', () => {
    it('refuses a wrong secret with 401 invalid_client and a Basic challenge', async () => {
      const res = await token(
        { grant_type: 'refresh_token', refresh_token: 'x' },
        basic(client.clientId, 'svcs_wrong'),
      );
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'invalid_client' });
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
      const unknown = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, basic('svcc_nobody', 'secret'));
      expect(unknown.statusCode).toBe(401);
      const none = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, null);
      expect(none.statusCode).toBe(401);
    });

    it('accepts client_id and client_secret in the body, but not together with Basic', async () => {
      const { refresh_token } = await tokensFor();
      const body = await token(
        { grant_type: 'refresh_token', refresh_token, client_id: client.clientId, client_secret: client.clientSecret },
        null,
      );
      expect(body.statusCode).toBe(200);
      const both = await token({ grant_type: 'refresh_token', refresh_token: 'x', client_secret: client.clientSecret });
      expect(both.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('decodes Basic credentials that were form-urlencoded (RFC 6749 2.3.1)', async () => {
      const id = 'partner app:1';
      const secret = 'se cret+%/:';
      await registerClient(
        new OAuthRepository(t.db.database.db),
        {
          name: 'Odd',
          redirectUris: ['https://odd.example/cb'],
          scopes: ['profile'],
          public: false,
          clientId: id,
          clientSecret: secret,
        },
        TEST_NOW,
      );
      const encoded = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
      const res = await token(
        { grant_type: 'refresh_token', refresh_token: 'not-a-token' },
        `Basic ${Buffer.from(`${encoded(id)}:${encoded(secret)}`).toString('base64')}`,
      );
      expect(res.json()).toMatchObject({ error: 'invalid_grant' }); // authenticated; the token itself is bad
    });

    it('lets a public client use PKCE alone, and never with a secret', async () => {
      await registerClient(
        new OAuthRepository(t.db.database.db),
        {
          name: 'SPA',
          redirectUris: ['http://127.0.0.1:5173/cb'],
          scopes: ['profile'],
          public: true,
          clientId: 'svcc_public',
        },
        TEST_NOW,
      );
      const verifier = verifierOf();
      const callback = await new Browser(send).authorize(
        authorizePath(
          { client_id: 'svcc_public', redirect_uri: 'http://127.0.0.1:5173/cb', scope: 'profile' },
          verifier,
        ),
        t.demo.user,
      );
      const form = {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:5173/cb',
        code_verifier: verifier,
        client_id: 'svcc_public',
      };
      const withSecret = await token({ ...form, client_secret: 'guess' }, null);
      expect(withSecret.statusCode).toBe(401);
      const res = await token(form, null);
      expect(res.statusCode, res.body).toBe(200);
    });

    it('answers malformed requests with OAuth errors', async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/json', authorization: basic(client.clientId, client.clientSecret) },
        payload: '{"grant_type":"refresh_token"}',
      });
      expect(json.json()).toMatchObject({ error: 'invalid_request' });
      expect((await token({ grant_type: 'password' })).json()).toMatchObject({ error: 'unsupported_grant_type' });
      expect((await token({})).json()).toMatchObject({
        error: 'invalid_request',
        error_description: 'grant_type is required',
      });
    });
  });

  describe('refresh tokens', () => {
    it('rotate, and a reused one is invalid_grant and revokes the whole grant', async () => {
      const first = await tokensFor();
      const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(second.statusCode).toBe(200);
      const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(reuse.json()).toMatchObject({ error: 'invalid_grant' });
      expect(
        (await token({ grant_type: 'refresh_token', refresh_token: second.json().refresh_token })).json(),
      ).toMatchObject({ error: 'invalid_grant' });
      expect((await userinfo(second.json().access_token)).statusCode).toBe(401);
    });

    it('admit exactly one of 20 concurrent refreshes with the same token', async () => {
      const { refresh_token } = await tokensFor();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => token({ grant_type: 'refresh_token', refresh_token })),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    });

    it('may narrow the scopes but never widen them', async () => {
      const { refresh_token } = await tokensFor('profile');
      const escalate = await token({ grant_type: 'refresh_token', refresh_token, scope: 'profile event:write' });
      expect(escalate.json()).toMatchObject({ error: 'invalid_scope' });
      // The refused refresh spent nothing: the same token still refreshes, and its grant was not revoked.
      const again = await token({ grant_type: 'refresh_token', refresh_token });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().scope).toBe('profile');
      const wider = await tokensFor('profile email');
      const narrowed = await token({ grant_type: 'refresh_token', refresh_token: wider.refresh_token, scope: 'email' });
      expect(narrowed.json().scope).toBe('email');
    });

    it('are refused once revoked, and revocation of an unknown token is still a success', async () => {
      const issued = await tokensFor();
      const revoke = (tokenValue: string) =>
        t.app.inject({
          method: 'POST',
          url: '/oauth/revoke',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(client.clientId, client.clientSecret),
          },
          payload: new URLSearchParams({ token: tokenValue, token_type_hint: 'refresh_token' }).toString(),
        });
      expect((await revoke(issued.refresh_token)).statusCode).toBe(200);
      expect((await revoke(issued.refresh_token)).statusCode).toBe(200);
      expect((await revoke('svcr_never-issued')).statusCode).toBe(200);
      expect((await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token })).json()).toMatchObject({
        error: 'invalid_grant',
      });
      expect((await userinfo(issued.access_token)).statusCode).toBe(401);
    });
  });

  describe('access tokens at the API', () => {
    const sign = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
      const keys = new SigningKeys(
        t.db.database.db,
        keyEncryptionKey(t.config.signingKeySecret, t.config.dataDir),
        () => t.clock.now,
        3600,
      );
      await keys.init();
      const { kid, privateKey } = keys.signingKey();
      const now = Math.floor(t.clock.now / 1000);
      return new SignJWT({
        iss: 'https://api.test.example',
        sub: String(t.demo.user.id),
        aud: 'https://api.test.example/api',
        iat: now,
        exp: now + 600,
        jti: 'j1',
        client_id: client.clientId,
        scope: 'profile',
        grant_id: 'grt_x',
        ...claims,
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid, ...header })
        .sign(privateKey);
    };

    const expectInvalid = async (accessToken: string, fragment: string) => {
      const res = await userinfo(accessToken);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'C0003', details: 'Authorization' });
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(res.json().message).toContain(fragment);
    };

    it('accept a valid token and give the claims of its scopes', async () => {
      const { access_token } = await tokensFor('profile');
      const res = await userinfo(access_token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        sub: String(t.demo.user.id),
        preferred_username: 'demo-user',
        name: '데모 사용자',
        locale: 'ko',
      });
      expect(res.json().email).toBeUndefined();
    });

    it('accept profile:read as an alias of profile', async () => {
      const { access_token, scope } = await tokensFor('profile:read');
      expect(scope).toBe('profile:read');
      expect((await userinfo(access_token)).statusCode).toBe(200);
    });

    it('refuse a token without the needed scope with 403 C0011 and insufficient_scope', async () => {
      const { access_token } = await tokensFor('post:write');
      const res = await userinfo(access_token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'C0011' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="svc", error="insufficient_scope", scope="profile"');
    });

    it('refuse a missing token with 401 C0003 and a bare Bearer challenge', async () => {
      const res = await t.request({ method: 'GET', url: '/oauth/userinfo' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'C0003' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="svc"');
      const malformed = await t.request({
        method: 'GET',
        url: '/oauth/userinfo',
        headers: { authorization: 'Token abc' },
      });
      expect(malformed.statusCode).toBe(401);
    });

    it('refuse a token signed with another key', async () => {
      const real = await sign({});
      const { privateKey } = await generateKeyPair('ES256');
      const [header] = real.split('.');
      const forged = await new SignJWT({ client_id: client.clientId, scope: 'profile', grant_id: 'grt_x' })
        .setProtectedHeader(JSON.parse(Buffer.from(header!, 'base64url').toString()))
        .setIssuer('https://api.test.example')
        .setSubject('1')
        .setAudience('https://api.test.example/api')
        .setIssuedAt()
        .setExpirationTime('10m')
        .setJti('j')
        .sign(privateKey);
      await expectInvalid(forged, 'signature');
    });

    it('refuse alg none', async () => {
      const real = await sign({});
      const [, payload] = real.split('.');
      const header = Buffer.from(
        JSON.stringify({
          alg: 'none',
          typ: 'at+jwt',
          kid: JSON.parse(Buffer.from(real.split('.')[0]!, 'base64url').toString()).kid,
        }),
      ).toString('base64url');
      await expectInvalid(`${header}.${payload}.`, 'not an access token');
    });

    it('refuse an expired token', async () => {
      const { access_token } = await tokensFor('profile');
      t.clock.now = TEST_NOW + 3631_000;
      try {
        await expectInvalid(access_token, 'expired');
      } finally {
        t.clock.now = TEST_NOW;
      }
    });

    it('refuse a token accepted before once it expires (a verified token is kept only until then)', async () => {
      const { access_token } = await tokensFor('profile');
      const { exp } = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as { exp: number };
      expect((await userinfo(access_token)).statusCode).toBe(200);
      t.clock.now = exp * 1000 + 29_000; // within the 30 s of tolerance past its expiry: still accepted
      try {
        const late = await userinfo(access_token);
        expect(late.statusCode, late.body).toBe(200);
        t.clock.now = exp * 1000 + 31_000;
        await expectInvalid(access_token, 'expired');
      } finally {
        t.clock.now = TEST_NOW;
      }
    });

    it('refuse a token for another audience, from another issuer, or without the at+jwt type', async () => {
      const { access_token } = await tokensFor('profile');
      const grantId = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()).grant_id;
      expect((await userinfo(await sign({ grant_id: grantId }))).statusCode).toBe(200);
      await expectInvalid(await sign({ grant_id: grantId, aud: 'https://other.example/api' }), '"aud"');
      await expectInvalid(await sign({ grant_id: grantId, iss: 'https://evil.example' }), '"iss"');
      await expectInvalid(await sign({ grant_id: grantId }, { typ: 'JWT' }), 'not an access token');
    });

    it('refuse an invalid optional token on post reads instead of ignoring it', async () => {
      const res = await t.get(`/api/v1/posts/${t.demo.posts.company}`, { authorization: 'Bearer not.a.token' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('C0003');
    });

    it("make owned true only for the caller's own posts", async () => {
      const { access_token } = await tokensFor('profile');
      const mine = await t.get(`/api/v1/posts/${t.demo.posts.byDemoUser[0]}`, {
        authorization: `Bearer ${access_token}`,
      });
      expect(mine.json().owned).toBe(true);
      const other = await t.get(`/api/v1/posts/${t.demo.posts.company}`, { authorization: `Bearer ${access_token}` });
      expect(other.json().owned).toBe(false);
      const list = await t.get('/api/v1/posts?pageSize=50&sort=RECENT', { authorization: `Bearer ${access_token}` });
      const owned = list
        .json()
        .items.filter((p: { owned: boolean }) => p.owned)
        .map((p: { postId: number }) => p.postId);
      expect(owned.length).toBeGreaterThan(0);
      for (const id of owned) expect(t.demo.posts.byDemoUser).toContain(id);
    });

    it('stop working on another instance within 5 seconds of revocation', async () => {
      const other = await anotherInstance(t);
      try {
        const { access_token, refresh_token } = await tokensFor('profile');
        const viaOther = () =>
          other.inject({ method: 'GET', url: '/oauth/userinfo', headers: { authorization: `Bearer ${access_token}` } });
        expect((await viaOther()).statusCode).toBe(200);
        const revoked = await t.app.inject({
          method: 'POST',
          url: '/oauth/revoke',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(client.clientId, client.clientSecret),
          },
          payload: `token=${refresh_token}`,
        });
        expect(revoked.statusCode).toBe(200);
        // The bound holds on the service's clock (which judges the tokens too): moved 200 ms at a time.
        const started = t.clock.now;
        let status = 200;
        while (t.clock.now - started < 5_000 && status === 200) {
          status = (await viaOther()).statusCode;
          if (status === 200) t.clock.now += 200;
        }
        expect(status).toBe(401);
        expect(t.clock.now - started).toBeLessThan(5_000);
      } finally {
        await other.close();
      }
    });
  });
});
