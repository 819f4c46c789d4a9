import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';
import { realWait } from './helpers/real-time.js';

const insecure = { [oauth.allowInsecureRequests]: true };

/**
 * The test of record for the protocol (docs/decisions.md): an independent client library drives the whole
 * flow against a real listening server and validates the access token as an RFC 9068 resource server.
 */
describe.each(ENGINES)('OAuth 2.0 flow with oauth4webapi on %s', (engine) => {
  let s: ListeningApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let clientAuth: oauth.ClientAuth;
  let redirectUri: string;

  beforeAll(async () => {
    s = await startListeningApp(engine);
    const issuer = new URL(s.base);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    client = { client_id: s.demo.client.clientId };
    clientAuth = oauth.ClientSecretBasic(s.demo.client.clientSecret);
    redirectUri = s.demo.client.redirectUri;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('discovers, authorizes with sign-in and consent, exchanges the code, validates, refreshes and revokes', async () => {
    expect(as).toMatchObject({
      issuer: s.base,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'profile email post:write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const browser = new Browser(fetchSend(s.base));
    const callback = await browser.authorize(url.pathname + url.search, s.demo.user);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('iss')).toBe(s.base);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, insecure),
    );
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('profile email post:write');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toMatch(/^svcr_/);

    // The resource server's view: RFC 9068 validation against the published JWKS.
    const claims = await oauth.validateJwtAccessToken(
      as,
      new Request(`${s.base}/api/v1/posts`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
      `${s.base}/api`,
      insecure,
    );
    expect(claims).toMatchObject({
      iss: s.base,
      aud: `${s.base}/api`,
      sub: String(s.demo.user.id),
      client_id: client.client_id,
      scope: 'profile email post:write',
    });

    const userinfo = await oauth.processUserInfoResponse(
      as,
      client,
      claims.sub,
      await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
    );
    expect(userinfo).toMatchObject({
      sub: claims.sub,
      email: 'demo@example.com',
      email_verified: true,
      preferred_username: 'demo-user',
    });
    expect(Object.keys(userinfo).sort()).toEqual([
      'email',
      'email_verified',
      'locale',
      'name',
      'picture',
      'preferred_username',
      'profile',
      'sub',
      'updated_at',
    ]);

    // The API accepts the token and marks the user's own posts.
    const own = await fetch(`${s.base}/api/v1/posts/${s.demo.posts.byDemoUser[0]}`, {
      headers: { 'x-svc-api-key': s.demo.apiKey, authorization: `Bearer ${tokens.access_token}` },
    });
    expect(((await own.json()) as { owned: boolean }).owned).toBe(true);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await oauth.validateJwtAccessToken(
      as,
      new Request(`${s.base}/api/v1/posts`, { headers: { authorization: `Bearer ${refreshed.access_token}` } }),
      `${s.base}/api`,
      insecure,
    );

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
    );
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, insecure),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // Access tokens of a revoked grant stop working within 5 seconds.
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (Date.now() < deadline) {
      status = (
        await fetch(`${s.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${refreshed.access_token}` } })
      ).status;
      if (status === 401) break;
      await realWait(250, 'poll');
    }
    expect(status).toBe(401);
  });

  it('skips the consent page when a prior consent covers the scopes', async () => {
    const browser = new Browser(fetchSend(s.base));
    const verifier = oauth.generateRandomCodeVerifier();
    const query = (scope: string) =>
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        scope,
        state: 'xyz',
      }).toString()}`;
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const first = await browser.authorize(
      `${query('profile job:write')}&code_challenge=${challenge}&code_challenge_method=S256`,
      s.demo.user,
    );
    expect(first.searchParams.get('code')).toBeTruthy();
    // Same scopes again: signed in, consent remembered, straight back to the client.
    const again = await browser.request(
      'GET',
      `${query('job:write')}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(again.status).toBe(302);
    expect(new URL(again.headers.location as string).searchParams.get('code')).toBeTruthy();
    // A new scope needs consent again.
    const more = await browser.request(
      'GET',
      `${query('job:write event:write')}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(more.status).toBe(200);
    expect(more.body).toContain('action="/oauth/authorize"');
  });
});

describe('the demo callback page', () => {
  it('shows the received code and the exchange command, escaped', async () => {
    const { createTestApp } = await import('./helpers/test-app.js');
    const { buildApp } = await import('../src/app.js');
    const t = await createTestApp('sqlite');
    const walkthrough = { state: 'printed-state', verifier: 'the-printed-verifier' };
    const app = await buildApp({
      config: t.config,
      database: t.db.database,
      logger: false,
      demoCallback: { ...t.demo.client, walkthrough },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/callback?code=abc%3Cb%3E&state=s1&iss=x' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('code=&#39;abc&lt;b&gt;&#39;');
      expect(res.body).toContain('grant_type=authorization_code');
      expect(res.body).toContain(`redirect_uri=&#39;${t.config.publicBaseUrl}/callback&#39;`);
      // A flow the builder started reads the verifier from the shell; the demo's printed link gets it filled in.
      expect(res.body).toContain('code_verifier=&quot;$VERIFIER&quot;');
      const printed = await app.inject({ method: 'GET', url: '/callback?code=c1&state=printed-state' });
      expect(printed.body).toContain('code_verifier=&#39;the-printed-verifier&#39;');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect((await t.app.inject({ method: 'GET', url: '/callback' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
