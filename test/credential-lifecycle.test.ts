import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_TEXT } from '../src/modules/console/console-text.js';
import { ConsoleForms } from './helpers/console-forms.js';
import {
  startListeningApp,
  startSecondInstance,
  type ListeningApp,
  type SecondInstance,
} from './helpers/listening-app.js';
import { Browser, fetchSend, hiddenField } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/**
 * The holes of issue 22 in the credential lifecycle, each reproduced as the issue found it: through the
 * console's real forms, the real OAuth flow driven by an independent client (oauth4webapi), and two
 * instances of the service sharing one database (instance A takes the console actions, B serves beside it).
 */
describe.each(ENGINES)('credential lifecycle on %s', (engine) => {
  let a: ListeningApp;
  let b: SecondInstance;
  let as: oauth.AuthorizationServer;
  let builder: ConsoleForms;

  beforeAll(async () => {
    a = await startListeningApp(engine);
    b = await startSecondInstance(a);
    const issuer = new URL(a.base);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    builder = new ConsoleForms(a.base);
    await builder.signIn(a.demo.user);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The browser half of the flow for the demo user; returns the callback's parameters and the verifier. */
  async function authorize(clientId: string, scope: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await new Browser(fetchSend(a.base)).authorize(`/oauth/authorize?${query}`, a.demo.user);
    return { params: oauth.validateAuthResponse(as, { client_id: clientId }, callback, state), verifier };
  }

  const exchange = async (
    client: { clientId: string; clientSecret: string },
    grant: { params: URLSearchParams; verifier: string },
  ) =>
    oauth.processAuthorizationCodeResponse(
      as,
      { client_id: client.clientId },
      await oauth.authorizationCodeGrantRequest(
        as,
        { client_id: client.clientId },
        oauth.ClientSecretBasic(client.clientSecret),
        grant.params,
        REDIRECT_URI,
        grant.verifier,
        insecure,
      ),
    );

  const refresh = async (client: { clientId: string; clientSecret: string }, refreshToken: string) =>
    oauth.processRefreshTokenResponse(
      as,
      { client_id: client.clientId },
      await oauth.refreshTokenGrantRequest(
        as,
        { client_id: client.clientId },
        oauth.ClientSecretBasic(client.clientSecret),
        refreshToken,
        insecure,
      ),
    );

  const userinfo = (base: string, accessToken: string) =>
    fetch(`${base}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status);
  const jobs = (base: string, key: string) =>
    fetch(`${base}/api/v1/jobs?pageSize=1`, { headers: { 'x-svc-api-key': key } }).then((r) => r.status);

  it('refuses a code or a refresh token presented by another client without spending it (row 3)', async () => {
    const appA = await builder.createApp('Client A');
    const clientA = await builder.createClient(appA.appId, REDIRECT_URI, ['profile']);
    const appB = await builder.createApp('Client B');
    const clientB = await builder.createClient(appB.appId, REDIRECT_URI, ['profile']);

    // B presents A's code: refused, and A can still exchange it.
    const grant = await authorize(clientA.clientId, 'profile');
    await expect(exchange(clientB, grant)).rejects.toMatchObject({ error: 'invalid_grant' });
    const tokens = await exchange(clientA, grant);

    // B presents A's refresh token: refused, and A's next refresh is a refresh, not a reuse.
    await expect(refresh(clientB, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const refreshed = await refresh(clientA, tokens.refresh_token!);
    expect(await userinfo(a.base, refreshed.access_token)).toBe(200);
    // The grant stands: its newest refresh token works too.
    await refresh(clientA, refreshed.refresh_token!);
  });

  it('ends the keys, the client, and every grant and token of a deleted app, on both instances (row 1)', async () => {
    const app = await builder.createApp('Deleted soon');
    const client = await builder.createClient(app.appId, REDIRECT_URI, ['profile', 'post:write']);
    const tokens = await exchange(client, await authorize(client.clientId, 'profile post:write'));
    const pending = await authorize(client.clientId, 'profile');
    expect(await userinfo(a.base, tokens.access_token)).toBe(200);
    expect(await userinfo(b.base, tokens.access_token)).toBe(200);
    expect(await jobs(b.base, app.apiKey)).toBe(200);

    // Sent without its confirmation ticked, the form changes nothing.
    const unconfirmed = await builder.post(`/console/apps/${app.appId}/delete`);
    expect(unconfirmed.status).toBe(400);
    expect(await jobs(a.base, app.apiKey)).toBe(200);
    const deleted = await builder.post(`/console/apps/${app.appId}/delete`, { confirm: 'yes' });
    expect(deleted.status).toBe(303);

    // On the instance that deleted: everything at once.
    expect(await userinfo(a.base, tokens.access_token)).toBe(401);
    expect(await jobs(a.base, app.apiKey)).toBe(401);
    // The client no longer authenticates (401 invalid_client, a WWW-Authenticate challenge to oauth4webapi):
    // its refresh token and its unexchanged code are refused.
    await expect(refresh(client, tokens.refresh_token!)).rejects.toMatchObject({
      status: 401,
      name: 'WWWAuthenticateChallengeError',
    });
    await expect(exchange(client, pending)).rejects.toMatchObject({
      status: 401,
      name: 'WWWAuthenticateChallengeError',
    });
    // No new codes: the authorize endpoint shows its error page and does not redirect.
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'profile',
      state: 's',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const authorizePage = await new Browser(fetchSend(b.base)).request('GET', `/oauth/authorize?${query}`);
    expect(authorizePage.status).toBe(400);
    expect(authorizePage.headers.location).toBeUndefined();
    // A post with the old access token is refused on both instances once the revocation bound (5 s) has passed.
    a.clock.offset += 5_001;
    try {
      for (const base of [a.base, b.base]) {
        expect(await userinfo(base, tokens.access_token)).toBe(401);
        expect(await jobs(base, app.apiKey)).toBe(401);
        const post = await fetch(`${base}/api/v1/posts`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            'content-type': 'multipart/form-data; boundary=x',
          },
          body: '--x\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n{"text":"still here?"}\r\n--x--\r\n',
        });
        expect(post.status).toBe(401);
      }
    } finally {
      a.clock.offset -= 5_001;
    }
    // The audit trail records what the deletion ended.
    const audit = await a.db.database.db
      .selectFrom('app_audit')
      .select(['action', 'detail'])
      .where('app_id', '=', app.appId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('app.deleted');
    expect(audit.detail).toContain(client.clientId);
    expect(audit.detail).toContain('1 grant');
  });

  it('refuses a key rotated with overlap "none" at once where it was rotated and within 5 s elsewhere; the same for a revoked key (row 2)', async () => {
    const app = await builder.createApp('Rotated');
    expect(await jobs(a.base, app.apiKey)).toBe(200);
    expect(await jobs(b.base, app.apiKey)).toBe(200);
    const rotated = await builder.shown(
      await builder.post(`/console/apps/${app.appId}/keys/rotate`, { overlap: 'none' }),
    );
    const next = /id="app-key">([^<]+)</.exec(rotated.body)![1]!;
    expect(await jobs(a.base, app.apiKey)).toBe(401);
    expect(await jobs(a.base, next)).toBe(200);
    expect(await jobs(b.base, next)).toBe(200);
    a.clock.offset += 5_001;
    try {
      expect(await jobs(b.base, app.apiKey)).toBe(401);
      // Revoked: at once on A, within 5 s on B.
      const keyId = Number(
        /action="\/console\/apps\/\d+\/keys\/(\d+)\/revoke"/.exec(
          (await builder.browser.request('GET', `/console/apps/${app.appId}`)).body,
        )![1],
      );
      expect(await jobs(b.base, next)).toBe(200);
      expect((await builder.post(`/console/apps/${app.appId}/keys/${keyId}/revoke`, { confirm: 'yes' })).status).toBe(
        303,
      );
      expect(await jobs(a.base, next)).toBe(401);
      a.clock.offset += 5_001;
      expect(await jobs(b.base, next)).toBe(401);
    } finally {
      a.clock.offset = 0;
    }
  });
  it("issues on refresh at most what the grant and the client's current scopes share (row 8)", async () => {
    const app = await builder.createApp('Narrowed');
    const client = await builder.createClient(app.appId, REDIRECT_URI, ['profile', 'post:write']);
    const tokens = await exchange(client, await authorize(client.clientId, 'profile post:write'));
    expect(tokens.scope).toBe('profile post:write');
    const narrowed = await builder.post(`/console/apps/${app.appId}/client/update`, {
      redirect_uris: REDIRECT_URI,
      scopes: ['profile'],
    });
    expect(narrowed.status).toBe(200);
    const refreshed = await refresh(client, tokens.refresh_token!);
    expect(refreshed.scope).toBe('profile');
    const post = await fetch(`${b.base}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${refreshed.access_token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n{"text":"narrowed"}\r\n--x--\r\n',
    });
    expect(post.status).toBe(403);
    expect(((await post.json()) as { code: string }).code).toBe('C0011');
  });

  it('bounds what a console sign-in stores: a 10,000-character e-mail is refused, and throttle keys have a fixed size (row 7)', async () => {
    const visitor = new Browser(fetchSend(a.base));
    const page = await visitor.request('GET', '/console/sign-in');
    for (const email of [`${'a'.repeat(10_000)}@example.com`, 'someone@example.com']) {
      const res = await visitor.request('POST', '/console/sign-in', {
        email,
        password: 'not the password',
        csrf_token: hiddenField(page.body, 'csrf_token'),
      });
      expect(res.status).toBe(401);
    }
    const keys = await a.db.database.db
      .selectFrom('rate_limit_counters')
      .select('counter_key')
      .where('counter_key', 'like', 'login|%')
      .execute();
    expect(keys.length).toBeGreaterThan(0);
    for (const { counter_key: key } of keys) expect(key.length).toBeLessThan(64);
  });

  it('makes nothing again when a result page is reloaded, and never cuts a running overlap short (row 4)', async () => {
    const { db } = a.db.database;
    const app = await builder.createApp('Reloaded');
    const client = await builder.createClient(app.appId, REDIRECT_URI, ['profile']);
    /** Whether the token endpoint takes `secret` for the client (a bogus refresh token then gives invalid_grant, not invalid_client). */
    const accepts = async (secret: string) => {
      const res = await fetch(`${b.base}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
        },
        body: 'grant_type=refresh_token&refresh_token=svcr_bogus',
      });
      return ((await res.json()) as { error: string }).error === 'invalid_grant';
    };
    const audit = async (action: string) =>
      (
        await db
          .selectFrom('app_audit')
          .select('id')
          .where('app_id', '=', app.appId)
          .where('action', '=', action)
          .execute()
      ).length;
    const keyCount = async () =>
      (await db.selectFrom('app_keys').select('id').where('app_id', '=', app.appId).execute()).length;

    // The rotation answers with a redirect; its page shows the new secret once, and a reload shows it no more.
    const rotated = await builder.post(`/console/apps/${app.appId}/client/rotate-secret`, { overlap: '1h' });
    const page = await builder.shown(rotated);
    const next = /id="client-secret">([^<]+)</.exec(page.body)![1]!;
    const reloaded = await builder.browser.request('GET', rotated.headers.location as string);
    expect(reloaded.status).toBe(200);
    expect(reloaded.body).not.toContain(next);
    expect(reloaded.body).not.toContain('id="client-secret"');
    expect(reloaded.body).toContain(CONSOLE_TEXT.ko.shownOnce);
    expect(await audit('secret.rotated')).toBe(1);
    expect(await accepts(client.clientSecret)).toBe(true);
    expect(await accepts(next)).toBe(true);

    // The form sent again (a double submit) within the overlap is refused: the first secret keeps its hour.
    const again = await builder.post(`/console/apps/${app.appId}/client/rotate-secret`, { overlap: '1h' });
    expect(again.status).toBe(409);
    expect(again.body).toContain(CONSOLE_TEXT.ko.overlapRunning);
    expect(await audit('secret.rotated')).toBe(1);
    expect(await accepts(client.clientSecret)).toBe(true);
    expect(await accepts(next)).toBe(true);

    // Ended by its owner, the previous secret stops; then a rotation is taken again.
    const ended = await builder.post(`/console/apps/${app.appId}/client/end-previous-secret`);
    expect(ended.status).toBe(200);
    expect(await audit('secret.previous-ended')).toBe(1);
    expect(await accepts(client.clientSecret)).toBe(false);
    expect(await accepts(next)).toBe(true);
    expect((await builder.post(`/console/apps/${app.appId}/client/end-previous-secret`)).status).toBe(400);
    const third = await builder.shown(
      await builder.post(`/console/apps/${app.appId}/client/rotate-secret`, { overlap: 'none' }),
    );
    expect(await accepts(/id="client-secret">([^<]+)</.exec(third.body)![1]!)).toBe(true);
    expect(await accepts(next)).toBe(false);

    // A key rotation and an app's creation: their pages reloaded make no second key, no second app.
    const keysBefore = await keyCount();
    const keyRotated = await builder.post(`/console/apps/${app.appId}/keys/rotate`, { overlap: '1h' });
    const waiting = await db.selectFrom('console_reveals').select('sealed').execute();
    const key = /id="app-key">([^<]+)</.exec((await builder.shown(keyRotated)).body)![1]!;
    // While it waited for its page, the key was kept sealed, not as text.
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.sealed).not.toContain(key);
    expect(waiting[0]!.sealed).not.toContain(key.slice(5, 15));
    expect((await builder.browser.request('GET', keyRotated.headers.location as string)).body).not.toContain(key);
    expect(await keyCount()).toBe(keysBefore + 1);
    expect(await jobs(a.base, key)).toBe(200);
    const appsBefore = (await db.selectFrom('apps').select('id').execute()).length;
    const created = await builder.post('/console/apps', { name: 'Once' });
    await builder.shown(created);
    await builder.browser.request('GET', created.headers.location as string);
    expect((await db.selectFrom('apps').select('id').execute()).length).toBe(appsBefore + 1);
    // Nothing shown is left waiting.
    expect(await db.selectFrom('console_reveals').select('id_hash').execute()).toEqual([]);
  });
});
