/**
 * The front pages in Chromium: the landing page, its language switch (the choice then holds in the console), a guide
 * with its links between guides, and no request the pages make goes unanswered (the icon included). Screenshots in
 * test/.screenshots/.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

const SHOTS = 'test/.screenshots';

describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)('the front pages in Chromium', () => {
  let t: ListeningApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the landing page in Korean, switches to English, and the console follows; every request answered', async () => {
    const context = await browser.newContext({ locale: 'ko-KR', viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${t.base}/`);
    expect(await page.locator('h1').innerText()).toBe('Jobs, Events and Posts Open API');
    expect(await page.locator('html').getAttribute('lang')).toBe('ko');
    await page.screenshot({ path: `${SHOTS}/site-landing-ko.png`, fullPage: true });
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(`${t.base}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('link', { name: 'API reference' }).first().getAttribute('href')).toBe('/docs');
    await page.screenshot({ path: `${SHOTS}/site-landing-en.png`, fullPage: true });
    await page.getByRole('link', { name: 'Developer console' }).first().click();
    await page.waitForURL(/\/console\/sign-in$/);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('link', { name: '한국어' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    expect(await page.locator('html').getAttribute('lang')).toBe('ko');
    expect(failed).toEqual([]);
    await context.close();
  });

  it('shows a guide with working links to other guides', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${t.base}/guides`);
    await page.getByRole('link', { name: /^MCP/ }).click();
    await page.waitForURL(/\/guides\/mcp$/);
    await page.screenshot({ path: `${SHOTS}/site-guide-mcp.png` });
    await page.locator('article a[href^="/guides/oauth"]').first().click();
    await page.waitForURL(/\/guides\/oauth/);
    expect(await page.locator('h1').innerText()).toMatch(/OAuth/);
    expect(failed).toEqual([]);
    await page.close();
  });
});
