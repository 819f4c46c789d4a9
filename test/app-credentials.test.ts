import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCredentials } from '../src/modules/apps/app-credentials.js';
import { AppRepository } from '../src/modules/apps/app-repository.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const HOUR = 3_600_000;

/**
 * Rotation with an overlap (issue 14): the new credential works at once, the old one keeps working until
 * the overlap ends and then stops (401 C0001 for a key, invalid_client for a secret); revocation stops a
 * key within the key cache's bound. Checked over HTTP, with the service's clock moved.
 */
describe.each(ENGINES)('app credentials on %s', (engine) => {
  let t: TestContext;
  let credentials: AppCredentials;
  let demoAppId: number;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { API_KEY_CACHE_SECONDS: '5' } });
    credentials = new AppCredentials(t.db.database.db);
    demoAppId = (
      await t.db.database.db.selectFrom('apps').select('id').where('name', '=', 'Demo app').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const status = async (key: string) =>
    await t.app.inject({ method: 'GET', url: '/api/v1/jobs?pageSize=1', headers: { 'x-svc-api-key': key } });

  it('keeps the old key working through a one-hour overlap, then refuses it with 401 C0001', async () => {
    const old = t.demo.apiKey;
    expect((await status(old)).statusCode).toBe(200);
    const { apiKey } = await credentials.rotateKey(demoAppId, '1h', t.demo.user.id, t.clock.now);
    expect((await status(apiKey)).statusCode).toBe(200);
    t.clock.now += HOUR - 1_000;
    expect((await status(old)).statusCode).toBe(200);
    t.clock.now += 1_000;
    const refused = await status(old);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('C0001');
    expect((await status(apiKey)).statusCode).toBe(200);

    const audit = await new AppRepository(t.db.database.db).auditOf(demoAppId);
    expect(audit[0]).toMatchObject({
      action: 'key.rotated',
      actorUserId: t.demo.user.id,
      actorEmail: t.demo.user.email,
    });
    expect(audit[0]!.detail).toContain('works for 1h more');

    // With no overlap, and when revoked, a key stops within the key cache's time (API_KEY_CACHE_SECONDS, 5 s here).
    const { apiKey: third } = await credentials.rotateKey(demoAppId, 'none', null, t.clock.now);
    expect((await status(third)).statusCode).toBe(200);
    t.clock.now += 5_001;
    expect((await status(apiKey)).statusCode).toBe(401);
    const keys = await new AppRepository(t.db.database.db).keysOf(demoAppId);
    await credentials.revokeKey(demoAppId, keys.at(-1)!.id, null, t.clock.now);
    t.clock.now += 5_001;
    expect((await status(third)).statusCode).toBe(401);
    expect((await new AppRepository(t.db.database.db).auditOf(demoAppId))[0]).toMatchObject({
      action: 'key.revoked',
      actorUserId: null,
    });
  });

  it('keeps the old client secret working through the overlap, then refuses it', async () => {
    const db = t.db.database.db;
    await db
      .updateTable('oauth_clients')
      .set({ app_id: demoAppId })
      .where('client_id', '=', t.demo.client.clientId)
      .execute();
    const token = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'svcr_unknown',
          client_id: t.demo.client.clientId,
          client_secret: secret,
        }).toString(),
      });
    // A known client with a bad grant is invalid_grant; a bad client is invalid_client.
    expect((await token(t.demo.client.clientSecret)).json().error).toBe('invalid_grant');
    const fresh = await credentials.rotateClientSecret(t.demo.client.clientId, '24h', t.demo.user.id, t.clock.now);
    expect((await token(fresh)).json().error).toBe('invalid_grant');
    expect((await token(t.demo.client.clientSecret)).json().error).toBe('invalid_grant');
    t.clock.now += 24 * HOUR;
    const refused = await token(t.demo.client.clientSecret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('invalid_client');
    expect((await token(fresh)).json().error).toBe('invalid_grant');
    expect((await new AppRepository(db).auditOf(demoAppId))[0]).toMatchObject({ action: 'secret.rotated' });

    // A second rotation while an overlap runs would end it early: refused until the owner ends the previous secret.
    const next = await credentials.rotateClientSecret(t.demo.client.clientId, '1h', null, t.clock.now);
    await expect(credentials.rotateClientSecret(t.demo.client.clientId, 'none', null, t.clock.now)).rejects.toThrow(
      /works until/,
    );
    expect((await token(fresh)).json().error).toBe('invalid_grant');
    expect(await credentials.endPreviousSecret(t.demo.client.clientId, null, t.clock.now)).toBe(true);
    expect((await token(fresh)).json().error).toBe('invalid_client');
    expect((await token(next)).json().error).toBe('invalid_grant');
    expect(await credentials.endPreviousSecret(t.demo.client.clientId, null, t.clock.now)).toBe(false);
    expect((await new AppRepository(db).auditOf(demoAppId))[0]).toMatchObject({ action: 'secret.previous-ended' });
  });
});

describe("the consent page of an app's client", () => {
  it("shows the app's name, description, homepage and privacy policy", async () => {
    const { startListeningApp } = await import('./helpers/listening-app.js');
    const { Browser, fetchSend } = await import('./helpers/oauth-browser.js');
    const s = await startListeningApp('sqlite');
    try {
      const db = s.db.database.db;
      const app = await db.selectFrom('apps').select('id').where('name', '=', 'Demo app').executeTakeFirstOrThrow();
      await db
        .updateTable('apps')
        .set({
          name: '채용 도우미',
          description: 'Finds jobs for you & your team',
          homepage_url: 'https://helper.example/',
          privacy_url: 'https://helper.example/privacy',
        })
        .where('id', '=', app.id)
        .execute();
      await db
        .updateTable('oauth_clients')
        .set({ app_id: app.id })
        .where('client_id', '=', s.demo.client.clientId)
        .execute();
      const browser = new Browser(fetchSend(s.base));
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: s.demo.client.clientId,
        redirect_uri: s.demo.client.redirectUri,
        scope: 'profile',
        state: 'st',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      });
      let page = await browser.request('GET', `/oauth/authorize?${query}`);
      page = await browser.signIn(page, s.demo.user.email, s.demo.user.password);
      page = await browser.request('GET', page.headers.location as string, undefined, { 'accept-language': 'en' });
      expect(page.body).toContain('채용 도우미 asks for these permissions');
      expect(page.body).toContain('Finds jobs for you &amp; your team');
      expect(page.body).toContain(
        '<a href="https://helper.example/" rel="noopener noreferrer" target="_blank">Homepage</a>',
      );
      expect(page.body).toContain(
        '<a href="https://helper.example/privacy" rel="noopener noreferrer" target="_blank">Privacy policy</a>',
      );
    } finally {
      await s.close();
    }
  });
});
