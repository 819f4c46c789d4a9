import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from './helpers/axe.js';
import { hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import type { TestContext } from './helpers/test-app.js';
import { accessToken, bearer } from './helpers/tokens.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { realWait } from './helpers/real-time.js';

const SHOTS = process.env.CONSOLE_SCREENSHOTS === 'docs' ? 'docs/console' : 'test/.screenshots/console';

/**
 * The console's webhook pages in a real browser: a builder adds an endpoint and sees its signing secret once,
 * watches a failed delivery being retried and then delivered, opens it to see its request and attempts, sends it
 * again, and disables the endpoint. Every page passes axe-core with no serious or critical violation.
 */
describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)('webhooks in the developer console', () => {
  let s: ListeningApp;
  let browser: Browser;
  let receiver: Receiver;
  beforeAll(async () => {
    s = await startListeningApp('sqlite', { WEBHOOKS_ALLOW_LOOPBACK: 'true' });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
    receiver = await startReceiver();
    receiver.answer(() => ({ status: 500, body: '{"error":"not ready"}' }));
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await receiver?.close();
  });

  async function check(page: Page, name: string) {
    const results = await new AxeBuilder(page).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
      name,
    ).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  it('adds an endpoint, shows its secret once, lists a retried delivery with its attempts, sends it again and disables the endpoint', async () => {
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const page = await context.newPage();
    await page.goto(`${s.base}/console/sign-in`);
    await page.getByLabel('E-mail').fill(s.demo.user.email);
    await page.getByLabel('Password').fill(s.demo.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    await page.getByLabel('App name').fill('Job sync');
    await page.getByRole('button', { name: 'Create an app' }).click();
    await expect.poll(() => page.locator('#app-key').count(), { timeout: 10_000 }).toBe(1);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Add an endpoint' }).count(), { timeout: 10_000 })
      .toBe(1);
    await check(page, 'webhooks');
    // A private address is refused in the form, with what was typed kept.
    await page.getByLabel(/^URL/).fill('https://10.1.2.3/hooks');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await expect
      .poll(() => page.locator('#url-error').textContent(), { timeout: 10_000 })
      .toContain('not a public address');
    expect(await page.getByLabel(/^URL/).inputValue()).toBe('https://10.1.2.3/hooks');

    const target = receiver.url();
    await page.getByLabel(/^URL/).fill(target);
    await page.getByRole('checkbox', { name: 'post.created' }).check();
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await expect.poll(() => page.locator('#signing-secret').count(), { timeout: 10_000 }).toBe(1);
    await page.waitForLoadState('load');
    const secret = (await page.locator('#signing-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await check(page, 'webhook-endpoint-new-secret');
    await page.reload();
    expect(await page.locator('#signing-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A delivery that fails first: the page shows it being retried, then delivered.
    const token = await accessToken({ app: s.app, demo: s.demo } as TestContext, 'post:write');
    const body = multipart([jsonPart({ text: '웹훅 콘솔 시험' })]);
    expect(
      (
        await fetch(`${s.base}/api/v1/posts`, {
          method: 'POST',
          headers: { ...body.headers, ...bearer(token) },
          body: body.payload,
        })
      ).status,
    ).toBe(201);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    await page.reload();
    await expect
      .poll(() => page.locator('#delivery-list .delivery-state').first().textContent(), { timeout: 10_000 })
      .toContain('Sending');
    await check(page, 'webhook-endpoint-retrying');
    receiver.answer(() => ({ status: 204 }));
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('#delivery-list .delivery-state').first().textContent();
        },
        { timeout: 10_000 },
      )
      .toBe('Delivered');

    await page.locator('#delivery-list a').first().click();
    await expect.poll(() => page.locator('#attempt-list tbody tr').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('#attempt-list tbody tr').first().textContent()).toContain('204');
    expect(await page.locator('#attempt-list tbody tr').nth(1).textContent()).toContain('500');
    expect(await page.locator('#delivery-body').textContent()).toContain('웹훅 콘솔 시험');
    await check(page, 'webhook-delivery');
    await page.getByRole('button', { name: 'Send again' }).click();
    await expect
      .poll(() => page.locator('.notice').textContent(), { timeout: 10_000 })
      .toBe('Queued to be sent again.');
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();

    await page.getByRole('link', { name: /Back to the endpoint/ }).click();
    // The ping came when the endpoint was added; a test event of another type goes out from the form, listed at once.
    expect(receiver.pings).toHaveLength(1);
    await page.getByLabel('Type', { exact: true }).selectOption('job.published');
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect
      .poll(() => page.locator('.notice').textContent(), { timeout: 10_000 })
      .toContain('test event is on its way');
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(4);
    expect(new Webhook(secret).verify(receiver.received[3]!.body, receiver.received[3]!.headers)).toMatchObject({
      type: 'job.published',
      test: true,
    });
    await page.reload();
    await realWait(300, 'quiet');
    // The form answered with a redirect: the reload sent nothing more.
    expect(receiver.received).toHaveLength(4);
    expect(await page.locator('#delivery-list').textContent()).toContain('job.published');
    expect(await page.locator('#delivery-list').textContent()).toContain('webhook.ping');
    await check(page, 'webhook-endpoint-test-event');
    await page.getByRole('checkbox', { name: /given up/ }).check();
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(() => page.locator('#endpoint-state').textContent(), { timeout: 10_000 })
      .toContain('disabled in the console');
    await check(page, 'webhook-endpoint-disabled');
    await context.close();
  }, 90_000);
});
