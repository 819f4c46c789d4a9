import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, as .ci/run installs it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

/** A headless Chromium with the flags this machine needs (no sandbox as root, no calls home). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * The user's part of an authorization, in Chromium: opens `authorization`, signs in as `user` on the service's page,
 * and allows on the consent page (`onConsent` looks at it first); returns the consent page's text and the address the
 * browser was sent back to (the first request for which `back` is true: a host's loopback port, a callback server).
 */
export async function allowInChromium(
  browser: Browser,
  authorization: URL,
  user: { email: string; password: string },
  back: (url: string) => boolean,
  onConsent: (page: Page) => Promise<void> = async () => undefined,
): Promise<{ consent: string; callback: URL }> {
  const page = await browser.newPage();
  try {
    await page.goto(authorization.toString());
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('form[action="/oauth/login"] button[type="submit"]').click();
    await page.locator('button[value="allow"]').waitFor();
    const consent = await page.locator('main').innerText();
    await onConsent(page);
    const [callback] = await Promise.all([
      page.waitForRequest((request) => back(request.url())),
      page.locator('button[value="allow"]').click(),
    ]);
    return { consent, callback: new URL(callback.url()) };
  } finally {
    await page.close();
  }
}
