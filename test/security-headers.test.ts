import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers (helmet)', () => {
  let t: TestContext;
  beforeAll(async () => { t = await createTestApp('sqlite'); });
  afterAll(async () => { await t?.close(); });

  it.each([
    ['a public read', '/api/v1/codes/job-categories', 200],
    ['a served-again read', '/api/v1/posts/0', 200],
    ['an unknown path', '/api/v1/nothing-here', 404],
    ['a read without a key', '/api/v1/posts', 401],
  ])('on %s', async (_name, url, status) => {
    const path = url === '/api/v1/posts/0' ? `/api/v1/posts/${t.demo.posts.member}` : url;
    const headers = status === 401 ? {} : { 'x-svc-api-key': t.demo.apiKey };
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: path, headers });
      expect(res.statusCode).toBe(status);
      expect(res.headers).toMatchObject(EXPECTED);
      // HSTS only when the service is reached over https (PUBLIC_BASE_URL).
      const https = t.config.publicBaseUrl.startsWith('https://');
      expect(res.headers['strict-transport-security']).toBe(https ? 'max-age=31536000; includeSubDomains' : undefined);
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });
});
