import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

/** What every response carries, API or page. */
const EVERYWHERE = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** helmet's headers that act only on documents a browser renders: on the HTML pages, not on the JSON API. */
const DOCUMENT_ONLY = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers (helmet)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const hsts = () =>
    t.config.publicBaseUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : undefined;

  it.each([
    ['a public read', '/api/v1/codes/job-categories', 200],
    ['a served-again read', '/api/v1/posts/0', 200],
    ['an unknown path', '/api/v1/nothing-here', 404],
    ['a read without a key', '/api/v1/posts', 401],
  ])('the API: %s', async (_name, url, status) => {
    const path = url === '/api/v1/posts/0' ? `/api/v1/posts/${t.demo.posts.member}` : url;
    const headers = status === 401 ? {} : { 'x-svc-api-key': t.demo.apiKey };
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: path, headers });
      expect(res.statusCode).toBe(status);
      expect(res.headers).toMatchObject(EVERYWHERE);
      for (const name of Object.keys(DOCUMENT_ONLY)) expect(res.headers[name], name).toBeUndefined();
      // HSTS only when the service is reached over https (PUBLIC_BASE_URL).
      expect(res.headers['strict-transport-security']).toBe(hsts());
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it.each([
    ['the sign-in page (an unknown client)', '/oauth/authorize?client_id=nobody', 400],
    ['the API reference', '/docs/', 200],
  ])('the HTML pages: %s', async (_name, url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('text/html');
    // The sign-in pages tighten X-Frame-Options to DENY themselves.
    const { 'x-frame-options': _frames, ...rest } = EVERYWHERE;
    expect(res.headers).toMatchObject({ ...rest, ...DOCUMENT_ONLY });
    expect(['SAMEORIGIN', 'DENY']).toContain(res.headers['x-frame-options']);
    expect(res.headers['strict-transport-security']).toBe(hsts());
  });
});
