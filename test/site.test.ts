/** The front pages: the landing page at `/`, the guides of docs/, the icon, and the language switch every page carries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

describe('the front pages', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('answer / with a page that links the reference, the guides, the console and the OpenAPI document', async () => {
    const page = await get('/', { 'accept-language': 'en' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    for (const href of ['/docs', '/guides', '/console', '/openapi.json', '/guides/mcp', '/healthz'])
      expect(page.body).toContain(`href="${href}"`);
    expect(page.body).toContain('Release 1.0.0-beta.1');
    expect((await get('/', { 'accept-language': 'ko' })).body).toContain('<html lang="ko">');
  });

  it('serve each guide of docs/ as a page, its links to other guides turned into pages, and 404 for none', async () => {
    const index = await get('/guides');
    for (const name of ['oauth', 'mcp', 'webhooks', 'search', 'deployment'])
      expect(index.body).toContain(`href="/guides/${name}"`);
    const mcp = await get('/guides/mcp');
    expect(mcp.statusCode).toBe(200);
    expect(mcp.body).toContain('<h1 id="mcp-the-services-tools-for-ai-agents">');
    expect(mcp.body).toMatch(/href="\/guides\/oauth(?:#[^"]*)?"/);
    // A path of the source tree is shown as text, never as a broken link.
    expect(mcp.body).not.toMatch(/href="[^"]*\.ts"/);
    expect((await get('/guides/../package')).statusCode).toBe(404);
    expect((await get('/guides/nothing-here')).statusCode).toBe(404);
  });

  it('serve the icon at /favicon.ico and /favicon.svg, and the pages name it', async () => {
    for (const url of ['/favicon.ico', '/favicon.svg']) {
      const icon = await get(url);
      expect([icon.statusCode, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);
      expect(icon.body).toMatch(/^<svg /);
    }
    for (const url of ['/', '/console/sign-in'])
      expect((await get(url)).body).toContain('<link rel="icon" href="/favicon.svg"');
  });

  it('switch language with a cookie the console and the sign-in page follow, and go back only to a path of the service', async () => {
    const switched = await get('/language?to=en&back=%2Fconsole%2Fsign-in');
    expect(switched.statusCode).toBe(303);
    expect(switched.headers.location).toBe('/console/sign-in');
    const cookie = String(switched.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe('svc_lang=en');
    expect(String(switched.headers['set-cookie'])).toContain('SameSite=Lax');
    // Korean asked for by the browser, English chosen: the choice wins, on the console and on the OAuth pages.
    const signIn = await get('/console/sign-in', { 'accept-language': 'ko', cookie });
    expect(signIn.body).toContain('<html lang="en">');
    expect(signIn.body).toContain('href="/language?to=ko&amp;back=%2Fconsole%2Fsign-in"');
    const authorize = await get(
      `/oauth/authorize?response_type=code&client_id=${t.demo.client.clientId}&redirect_uri=${encodeURIComponent(t.demo.client.redirectUri)}&scope=profile&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      { 'accept-language': 'ko', cookie },
    );
    expect(authorize.body).toContain('<html lang="en">');
    // Issue 86 row 5: a tab or a newline a browser drops, other control characters, spaces: refused, never a 500.
    for (const back of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      '/\t/evil.example/x',
      '/\n/evil.example/x',
      '/\r\n/x',
      '/ /evil.example',
      '/\u0001/x',
    ]) {
      const switched = await get(`/language?to=ko&back=${encodeURIComponent(back)}`);
      expect(switched.statusCode, JSON.stringify(back)).toBe(303);
      expect(switched.headers.location, JSON.stringify(back)).toBe('/');
    }
    expect((await get('/language?to=ko&back=%2Fguides%2Fapi%3Fa%3D1%23x')).headers.location).toBe('/guides/api?a=1#x');
    expect((await get('/language?to=fr&back=/')).headers['set-cookie']).toBeUndefined();
  });
});
