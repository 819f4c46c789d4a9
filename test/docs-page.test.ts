import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

/**
 * The /docs page in a real browser (Debian's chromium): its Authorize button runs the authorization code
 * flow with PKCE through the sign-in and consent pages, and "Try it out" then makes a write with the token.
 */
describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)('the /docs page in a browser', () => {
  let s: ListeningApp;
  let browser: Browser;
  beforeAll(async () => {
    s = await startListeningApp('sqlite');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('signs in through OAuth 2.0 with PKCE and deletes one of the user\'s posts with "Try it out"', async () => {
    const page = await browser.newPage();
    await page.goto(`${s.base}/docs/`);
    await page.locator('button.authorize').first().click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input#client_id_authorizationCode').fill(s.demo.client.clientId);
    await modal.locator('input#client_secret_authorizationCode').fill(s.demo.client.clientSecret);
    await modal.locator('label[for="post:write-authorizationCode-checkbox-oauth2"]').click();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      modal
        .locator('.auth-container')
        .filter({ hasText: 'authorizationCode with PKCE' })
        .locator('button.authorize')
        .click(),
    ]);
    await popup.locator('input[name="email"]').fill(s.demo.user.email);
    await popup.locator('input[name="password"]').fill(s.demo.user.password);
    await popup.locator('form[action="/oauth/login"] button[type="submit"]').click();
    await popup.locator('button[value="allow"]').click();
    await popup.waitForEvent('close', { timeout: 15_000 }).catch(() => undefined);
    await expect
      .poll(() => modal.locator('button.logout, button:has-text("Logout")').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    fs.mkdirSync('test/.screenshots', { recursive: true });
    await page.screenshot({ path: 'test/.screenshots/docs-authorized.png' });
    await modal.locator('button.close-modal').first().click();

    const postId = s.demo.posts.byDemoUser[0]!;
    const operation = page.locator('#operations-Posts-deletePost');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation
      .locator('input[placeholder="postId"], tr[data-param-name="postId"] input')
      .first()
      .fill(String(postId));
    await operation.locator('button.execute').click();
    await expect
      .poll(() => operation.locator('.live-responses-table tbody .response-col_status').first().textContent(), {
        timeout: 15_000,
      })
      .toContain('204');
    await page.screenshot({ path: 'test/.screenshots/docs-try-it-out.png', fullPage: false });
    const gone = await fetch(`${s.base}/api/v1/posts/${postId}`, { headers: { 'x-svc-api-key': s.demo.apiKey } });
    expect(gone.status).toBe(404);
  }, 60_000);

  it('authorizes with `profile` ticked from the start, "Try it out" searches with no filter filled in, and code samples open', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${s.base}/docs/`);
    await page.locator('button.authorize').first().click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input#client_id_authorizationCode').fill(s.demo.client.clientId);
    await modal.locator('input#client_secret_authorizationCode').fill(s.demo.client.clientSecret);
    expect(await modal.locator('input#profile-authorizationCode-checkbox-oauth2').isChecked()).toBe(true);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      modal
        .locator('.auth-container')
        .filter({ hasText: 'authorizationCode with PKCE' })
        .locator('button.authorize')
        .click(),
    ]);
    // The sign-in page, not an `invalid_scope` that closes the window at once.
    await popup.locator('input[name="email"]').waitFor();
    expect(new URL(popup.url()).searchParams.get('scope')).toBe('profile');
    await popup.close();
    await modal.locator('button.close-modal').first().click();

    const operation = page.locator('#operations-Posts-searchPosts');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const filled = await operation
      .locator('.parameters input[type="text"], .parameters input:not([type])')
      .evaluateAll((inputs) =>
        inputs
          .map((i) => [i.getAttribute('placeholder'), (i as unknown as { value: string }).value])
          .filter(([, v]) => v !== ''),
      );
    // Only the parameters with a default (the page and its size) start filled: nothing that filters.
    expect(filled.map(([name]) => name).sort()).toEqual(['page', 'pageSize']);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/v1/posts?') || r.url().endsWith('/api/v1/posts')),
      operation.locator('button.execute').click(),
    ]);
    expect(new URL(request.url()).searchParams.has('postedAfter')).toBe(false);
    // Under the operation, its code samples open on a click: curl, JavaScript, Python, Java.
    const samples = page.locator('details.code-samples');
    expect(await samples.count()).toBe(1);
    await samples.locator('summary').click();
    expect(await samples.locator('.code-sample h5').allInnerTexts()).toEqual(['curl', 'JavaScript', 'Python', 'Java']);
    expect(await samples.locator('.code-sample pre').first().innerText()).toContain(
      `curl '${s.base}/api/v1/posts?pageSize=5'`,
    );
    await samples.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test/.screenshots/docs-code-samples.png' });
    await page.close();
  }, 60_000);

  it('opens in Korean for a Korean browser, and the definition selector switches to English and back', async () => {
    const context = await browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();
    await page.goto(`${s.base}/docs`);
    const summary = page.locator('#operations-Posts-searchPosts .opblock-summary-description');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('게시물 검색');
    expect(await page.locator('.topbar select option:checked').textContent()).toBe('한국어');
    await expect
      .poll(() => page.locator('.info .markdown, .info .renderedMarkdown').first().textContent())
      .toContain('앱 키로');
    fs.mkdirSync('test/.screenshots', { recursive: true });
    await page.screenshot({ path: 'test/.screenshots/docs-korean.png' });
    await page.locator('.topbar select').selectOption({ label: 'English' });
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('Search posts');
    expect(new URL(page.url()).searchParams.get('urls.primaryName')).toBe('English');
    // A reload keeps the reader's choice (the selector put it in the address).
    await page.reload();
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('Search posts');
    await context.close();
  }, 60_000);

  it('is branded as this service, with the release /healthz gives', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    await page.goto(`${s.base}/docs`);
    const version = ((await (await fetch(`${s.base}/healthz`)).json()) as { version: string }).version;
    await expect
      .poll(() => page.locator('.info .title').textContent(), { timeout: 15_000 })
      .toContain('Jobs, Events and Posts Open API');
    expect((await page.locator('.info .title .version').first().textContent())?.trim()).toBe(version);
    expect(await page.title()).toBe('Jobs, Events and Posts Open API · Reference');
    const logo = await page.locator('.topbar-wrapper img').getAttribute('src');
    expect(Buffer.from(logo!.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8')).toContain(
      'Jobs, Events and Posts Open API</text>',
    );
    // The callback runs in the page, where getComputedStyle is the window's (this project's types have no DOM).
    expect(
      await page
        .locator('.swagger-ui .topbar')
        .evaluate(
          (bar) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
              bar,
            ).backgroundColor,
        ),
    ).toBe('rgb(26, 95, 208)');
    const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect((await fetch(new URL(icon!, `${s.base}/docs/`))).headers.get('content-type')).toContain('image/svg+xml');
    fs.mkdirSync('test/.screenshots', { recursive: true });
    await page.screenshot({ path: 'test/.screenshots/docs-brand.png' });
    await page.close();
  }, 60_000);
});
