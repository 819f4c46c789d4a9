import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { createTestApp, GENEROUS_LIMITS, TEST_NOW, type TestContext } from './helpers/test-app.js';

describe('CORS', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { config: { ...GENEROUS_LIMITS, CORS_ORIGINS: 'https://app.example.com', RATE_LIMIT_GLOBAL_PER_MINUTE: '2' } });
    await registerClient(new OAuthRepository(t.db.database.db), {
      name: 'SPA', redirectUris: ['http://localhost:5173/cb'], scopes: ['profile'], public: true, clientId: 'svcc_spa',
    }, TEST_NOW);
  });
  afterAll(async () => { await t?.close(); });

  const preflight = (url: string, origin: string) => t.app.inject({
    method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-svc-api-key' },
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
    expect(real.headers['x-svc-ratelimit-remaining']).toBe('1');
  });

  it('does not allow other origins', async () => {
    const res = await preflight('/api/v1/posts', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows registered public clients\' origins at the token and revoke endpoints only', async () => {
    expect((await preflight('/oauth/token', 'http://localhost:5173')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect((await preflight('/oauth/revoke', 'http://localhost:5173')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect((await preflight('/api/v1/posts', 'http://localhost:5173')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight('/oauth/token', 'http://127.0.0.1:8080')).headers['access-control-allow-origin']).toBeUndefined();
  });
});
