import { createHash, randomBytes } from 'node:crypto';
import { discoverAuthorizationServerMetadata, registerClient } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { Browser, fetchSend } from './helpers/oauth-browser.js';
import { ENGINES } from './helpers/test-database.js';

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * Issue 86 rows 3, 8, 9 and 10: what an attacker does with Dynamic Client Registration, through the official MCP SDK's
 * own `registerClient` against a listening server. A self-registered client's errors never redirect until a signed-in
 * user has approved it; browser-dispatching schemes, user names, fragments and disguised loopback addresses are refused
 * and what is kept is stored in its normal form; every place a client may send users back stands beside its name, and
 * consent shows the whole address.
 */
describe.each(ENGINES)('dynamic registration as an attacker uses it, on %s', (engine) => {
  let s: ListeningApp;
  let metadata: Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>;
  beforeAll(async () => {
    s = await startListeningApp(engine);
    // As a host finds the registration endpoint: from the server's metadata.
    metadata = await discoverAuthorizationServerMetadata(s.base);
  });
  afterAll(async () => {
    await s?.close();
  });

  const register = (redirectUris: string[], name = 'Cursor') =>
    registerClient(s.base, {
      metadata: metadata!,
      clientMetadata: {
        client_name: name,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    });
  const authorize = (params: Record<string, string>, browser = new Browser(fetchSend(s.base))) =>
    browser.request('GET', `/oauth/authorize?${new URLSearchParams(params).toString()}`, undefined, {
      'accept-language': 'en',
    });

  it('shows the errors of a client nobody approved on its own page, never redirecting to the address it registered', async () => {
    const client = await register(['https://evil.example/phish']);
    for (const params of [
      // Not a response type this server has; then no PKCE challenge: both errors a redirect would carry.
      // (As records of strings: `state` only in the second.)
      { client_id: client.client_id, redirect_uri: 'https://evil.example/phish', response_type: 'token' },
      { client_id: client.client_id, redirect_uri: 'https://evil.example/phish', response_type: 'code', state: 'x' },
    ] as Record<string, string>[]) {
      const res = await authorize(params);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('<!doctype html>');
    }

    // Once a signed-in user has approved it, its errors go back to it as RFC 6749 says.
    const browser = new Browser(fetchSend(s.base));
    const verifier = randomBytes(32).toString('base64url');
    const approved = await browser.authorize(
      `/oauth/authorize?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/phish',
        response_type: 'code',
        scope: 'profile',
        state: 'st',
        code_challenge: challengeOf(verifier),
        code_challenge_method: 'S256',
      }).toString()}`,
      s.demo.user,
    );
    expect(approved.origin + approved.pathname).toBe('https://evil.example/phish');
    const after = await authorize(
      { client_id: client.client_id, redirect_uri: 'https://evil.example/phish', response_type: 'token' },
      browser,
    );
    expect(after.status).toBe(302);
    expect(after.headers.location).toMatch(/^https:\/\/evil\.example\/phish\?error=unsupported_response_type/);
  });

  it("refuses browsers' dispatch schemes and other openers as a native app's own", async () => {
    for (const uri of [
      'x-safari-https://evil.example/cb',
      'microsoft-edge:https://evil.example/cb',
      'googlechromes://evil.example/cb',
      'opera-https://evil.example/cb',
      'view-source:https://evil.example/cb',
      'jar:https://evil.example/x.jar!/cb',
      'intent://evil.example/cb#Intent;scheme=https;end',
    ])
      await expect(register([uri]), uri).rejects.toThrow(/Redirect URI/);
    // An app's own scheme stays welcome.
    expect((await register(['cursor://anysphere.cursor-retrieval/oauth/callback'])).client_id).toMatch(/^svcd_/);
  });

  it('refuses user names, fragments and disguised loopback addresses, and stores the rest in normal form', async () => {
    for (const uri of [
      'http://user:pw@127.0.0.1/cb',
      'http://user@127.0.0.1/cb',
      'http://127.0.0.1/cb#',
      'http://0x7f000001/cb',
      'http://2130706433/cb',
      'http://127.1/cb',
      'http://0177.0.0.1/cb',
    ])
      await expect(register([uri]), uri).rejects.toThrow(/Redirect URI/);
    const client = await register(['HTTP://127.0.0.1:80/cb', 'https://Example.COM/back']);
    expect(client.redirect_uris).toEqual(['http://127.0.0.1/cb', 'https://example.com/back']);
    // Written either way, the registered address matches; written as a disguised one, it does not.
    const base = {
      client_id: client.client_id,
      response_type: 'code',
      scope: 'profile',
      code_challenge_method: 'S256',
    };
    const challenge = challengeOf(randomBytes(32).toString('base64url'));
    for (const redirect of ['https://Example.COM/back', 'https://example.com/back']) {
      const signIn = await authorize({ ...base, redirect_uri: redirect, code_challenge: challenge });
      expect(signIn.status, redirect).toBe(200);
      expect(signIn.body).toContain('action="/oauth/login"');
    }
    const disguised = await authorize({ ...base, redirect_uri: 'http://2130706433/cb', code_challenge: challenge });
    expect(disguised.status).toBe(400);
    expect(disguised.headers.location).toBeUndefined();
  });

  it('names every place a client may send users back beside its name, and shows consent the whole address', async () => {
    const client = await register(['http://localhost/callback', 'https://evil.example/cb'], 'Claude Code');
    expect(client.client_name).toBe('Claude Code (localhost, evil.example)');
    const browser = new Browser(fetchSend(s.base));
    const signIn = await authorize(
      {
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/cb',
        response_type: 'code',
        scope: 'profile',
        state: 'st',
        code_challenge: challengeOf(randomBytes(32).toString('base64url')),
        code_challenge_method: 'S256',
      },
      browser,
    );
    expect(signIn.body).toContain('Claude Code (localhost, evil.example)');
    const signedIn = await browser.signIn(signIn, s.demo.user.email, s.demo.user.password);
    const consent = await browser.request('GET', String(signedIn.headers.location), undefined, {
      'accept-language': 'en',
    });
    expect(consent.body).toContain('Claude Code (localhost, evil.example)');
    expect(consent.body).toContain('you go back to https://evil.example/cb.');
  });
});

/**
 * Issue 86 row 4: a client that writes its own X-Forwarded-For behind a trusted proxy. The service takes the address
 * the nearest trusted hop gives (TRUST_PROXY=true: one hop), never an entry the client wrote further left, so the
 * per-address registration limit holds against forged addresses; with the proxies' own addresses named, the same.
 */
describe.each([
  ['true', '203.0.113.9'],
  ['127.0.0.1,10.0.0.0/8', '203.0.113.9'],
])('the address behind TRUST_PROXY=%s', (trust, proxyAddress) => {
  let s: ListeningApp;
  beforeAll(async () => {
    s = await startListeningApp('sqlite', { TRUST_PROXY: trust });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is the one the proxy saw, however many addresses the client wrote before it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/oauth/register',
        remoteAddress: '127.0.0.1',
        // What nginx's $proxy_add_x_forwarded_for makes of a forged header: the client's words, then its address.
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}, ${proxyAddress}` },
        payload: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
