import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { createTestApp, GENEROUS_LIMITS, TEST_NOW, type TestContext } from './helpers/test-app.js';

describe('CORS', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      config: { ...GENEROUS_LIMITS, CORS_ORIGINS: 'https://app.example.com', RATE_LIMIT_GLOBAL_PER_MINUTE: '2' },
    });
    await registerClient(
      new OAuthRepository(t.db.database.db),
      {
        name: 'SPA',
        redirectUris: ['http://localhost:5173/cb'],
        scopes: ['profile'],
        public: true,
        clientId: 'svcc_spa',
      },
      TEST_NOW,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const preflight = (url: string, origin: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-svc-api-key' },
    });

  it('answers preflights of an allowed origin without a key, and never counts them', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await preflight('/api/v1/posts', 'https://app.example.com');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-svc-api-key');
    }
    const real = await t.get('/api/v1/codes/work-types', { origin: 'https://app.example.com' });
    expect(real.statusCode).toBe(200);
    expect(real.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(real.headers['access-control-expose-headers']).toContain('X-SVC-RateLimit-Remaining');
    expect(real.headers['access-control-expose-headers']).toContain('X-RateLimit-Reset');
    expect(real.headers['x-svc-ratelimit-remaining']).toBe('1');
    // A cache keeps one answer per origin and per language: Vary names both (the language's did not replace CORS's).
    const varies = String(real.headers.vary)
      .split(',')
      .map((name) => name.trim().toLowerCase());
    expect(varies).toEqual(expect.arrayContaining(['origin', 'accept-language']));
  });

  it('does not allow other origins', async () => {
    const res = await preflight('/api/v1/posts', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("allows registered public clients' origins at the token and revoke endpoints only", async () => {
    expect((await preflight('/oauth/token', 'http://localhost:5173')).headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
    expect((await preflight('/oauth/revoke', 'http://localhost:5173')).headers['access-control-allow-origin']).toBe(
      'http://localhost:5173',
    );
    expect(
      (await preflight('/api/v1/posts', 'http://localhost:5173')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    expect(
      (await preflight('/oauth/token', 'http://127.0.0.1:8080')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    expect((await preflight('/oauth/nothing', 'http://localhost:5173')).statusCode).toBe(404);
    // The request itself, not only its preflight, names the origin (here a refused grant: the browser app reads the error).
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'grant_type=authorization_code&code=nope&client_id=svcc_spa&redirect_uri=http%3A%2F%2Flocalhost%3A5173%2Fcb&code_verifier=x',
    });
    expect(token.statusCode).toBe(400);
    expect(token.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const other = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=x&client_id=svcc_spa',
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a preflight of a refused origin at the OAuth endpoints as at any other route', async () => {
    const elsewhere = await preflight('/api/v1/posts', 'https://evil.example');
    const res = await preflight('/oauth/revoke', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect([res.statusCode, res.body]).toEqual([elsewhere.statusCode, elsewhere.body]);
    expect(res.statusCode).toBe(204);
    expect(res.headers.allow).toContain('POST');
  });
});
