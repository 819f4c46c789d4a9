import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { Browser, injectSend } from './helpers/oauth-browser.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const verifierOf = () => randomBytes(32).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * What the MCP hosts people use do by default (docs/mcp.md, "Adding the server to an MCP host"): a desktop or CLI host
 * listens on whatever loopback port is free, so a public client's registered loopback redirect matches on any port
 * (RFC 8252 7.3), and never a confidential client's.
 */
describe.each(ENGINES)('agent hosts on %s', (engine) => {
  let t: TestContext;
  let native: string;
  let web: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    t = await createTestApp(engine);
    const oauth = new OAuthRepository(t.db.database.db);
    native = (
      await registerClient(
        oauth,
        {
          name: 'A desktop host',
          redirectUris: ['http://127.0.0.1/callback', 'http://localhost:33418/cb', 'http://[::1]/oauth'],
          scopes: ['profile'],
          public: true,
        },
        TEST_NOW,
      )
    ).clientId;
    const confidential = await registerClient(
      oauth,
      { name: 'A web app', redirectUris: ['http://127.0.0.1:9000/cb'], scopes: ['profile'], public: false },
      TEST_NOW,
    );
    web = { clientId: confidential.clientId, clientSecret: confidential.clientSecret! };
  });
  afterAll(async () => {
    await t?.close();
  });

  const authorize = (clientId: string, redirectUri: string, verifier: string) =>
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'profile',
      state: 'st',
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
    }).toString()}`;
  const token = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it("lets a public client's loopback redirect URI take any port, and exchanges the code for that same URI", async () => {
    for (const redirectUri of [
      'http://127.0.0.1:19112/callback',
      'http://localhost:57413/cb',
      'http://[::1]:8123/oauth',
      'http://127.0.0.1/callback',
    ]) {
      const verifier = verifierOf();
      const callback = await new Browser(injectSend(t.app)).authorize(
        authorize(native, redirectUri, verifier),
        t.demo.user,
      );
      expect(`${callback.origin}${callback.pathname}`, redirectUri).toBe(redirectUri.replace(/\/$/, ''));
      const exchanged = await token({
        grant_type: 'authorization_code',
        client_id: native,
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
    }
  });

  it('takes offline_access (what hosts of protocol 2026-07-28 ask for a refresh token) as asking for nothing more', async () => {
    const verifier = verifierOf();
    const url = authorize(native, 'http://127.0.0.1:4100/callback', verifier).replace(
      'scope=profile',
      'scope=profile+offline_access',
    );
    const callback = await new Browser(injectSend(t.app)).authorize(url, t.demo.user);
    expect(callback.searchParams.get('code'), callback.toString()).toBeTruthy();
    const issued = await token({
      grant_type: 'authorization_code',
      client_id: native,
      code: callback.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:4100/callback',
      code_verifier: verifier,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json()).toMatchObject({ scope: 'profile', refresh_token: expect.any(String) });
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: native,
      refresh_token: issued.json().refresh_token,
      scope: 'profile offline_access',
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  it("takes no caller from outside: the in-process caller header without the process's secret is no credential", async () => {
    for (const headers of [
      { 'x-svc-internal-caller': 'app:1' },
      { 'x-svc-internal-caller': 'app:1', 'x-svc-internal-call': 'guess' },
      { 'x-svc-internal-caller': `client:${native}` },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toMatchObject({ code: 'C0001' });
    }
  });

  it("still holds the path, the scheme and the host of a loopback URI, and a confidential client's port", async () => {
    const browser = new Browser(injectSend(t.app));
    for (const [clientId, redirectUri] of [
      [native, 'http://127.0.0.1:19112/elsewhere'],
      [native, 'https://127.0.0.1:19112/callback'],
      [native, 'http://127.0.0.2:19112/callback'],
      [native, 'http://evil.example:19112/callback'],
      [web.clientId, 'http://127.0.0.1:9001/cb'],
    ]) {
      const page = await browser.request('GET', authorize(clientId!, redirectUri!, verifierOf()));
      expect([page.status, page.headers.location], redirectUri).toEqual([400, undefined]);
      expect(page.body).toContain('redirect_uri is missing or is not registered');
    }
  });
});
