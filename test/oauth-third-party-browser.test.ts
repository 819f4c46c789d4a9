import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthRepository } from '../src/modules/oauth/oauth-repository.js';
import { registerClient } from '../src/modules/oauth/client-admin.js';
import { hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

/**
 * A third-party app whose redirect URI is on another origin than the service (the app on `localhost`, the service on
 * `127.0.0.1`), walked in Chromium: the first consent, a returning user signed out and signed in, a denial and a
 * redirect URI that is not registered. Every walk ends where it must, and the browser reports no Content-Security-
 * Policy violation (Chrome holds each hop of a form's redirects to the page's `form-action`).
 */
describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)(
  'a third-party app on another origin, in Chromium',
  () => {
    let s: ListeningApp;
    let browser: Browser;
    let receiver: http.Server;
    let redirectUri: string;
    const clientId = 'svcc_ThirdPartyApp000000000000';

    beforeAll(async () => {
      s = await startListeningApp('sqlite');
      // The app's own server: its callback answers with a plain page, so the browser stops there.
      receiver = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('the app');
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      redirectUri = `http://localhost:${(receiver.address() as AddressInfo).port}/callback`;
      await registerClient(
        new OAuthRepository(s.db.database.db),
        {
          name: 'Third-party app',
          redirectUris: [redirectUri],
          scopes: ['profile', 'email', 'post:write'],
          public: true,
          clientId,
        },
        Date.now(),
      );
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => receiver?.close(resolve));
      await s?.close();
    });

    function authorizeUrl(scope: string, state: string, uri = redirectUri): string {
      const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
      return `${s.base}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: uri,
        scope,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })}`;
    }

    /**
     * Runs `walk` in a fresh browser (no cookies) and checks that its console reported no CSP violation; the browser
     * closes whatever the walk did.
     */
    async function inFreshBrowser(walk: (page: Page) => Promise<void>): Promise<void> {
      const context: BrowserContext = await browser.newContext();
      try {
        const page = await context.newPage();
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        await walk(page);
        expect(violations).toEqual([]);
      } finally {
        await context.close();
      }
    }

    async function signIn(page: Page): Promise<void> {
      await page.locator('input[name="email"]').fill(s.demo.user.email);
      await page.locator('input[name="password"]').fill(s.demo.user.password);
      await page.locator('form[action="/oauth/login"] button[type="submit"]').click();
    }

    /** The app's callback, once the browser has reached it. */
    async function atTheApp(page: Page): Promise<URL> {
      await page.waitForURL((url) => url.href.startsWith(redirectUri), { timeout: 15_000 });
      return new URL(page.url());
    }

    const expectCode = (url: URL, state: string) => {
      expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('state')).toBe(state);
      expect(url.searchParams.get('iss')).toBe(s.base);
    };

    it(
      'first consent: sign in, allow, and the app has its code',
      () =>
        inFreshBrowser(async (page) => {
          await page.goto(authorizeUrl('profile', 'first'));
          await signIn(page);
          await page.locator('button[value="allow"]').click();
          expectCode(await atTheApp(page), 'first');
        }),
      60_000,
    );

    it(
      'a returning user signed out: sign in, and the remembered consent sends the browser on to the app',
      () =>
        inFreshBrowser(async (page) => {
          await page.goto(authorizeUrl('profile', 'returning'));
          await signIn(page);
          expectCode(await atTheApp(page), 'returning');
          // Signed in now: straight to the app, no page in between.
          await page.goto(authorizeUrl('profile', 'signed-in'));
          expectCode(await atTheApp(page), 'signed-in');
        }),
      60_000,
    );

    it(
      'a denial ends at the app with access_denied',
      () =>
        inFreshBrowser(async (page) => {
          // A scope not consented to yet, so the consent page shows.
          await page.goto(authorizeUrl('profile email', 'denied'));
          await signIn(page);
          await page.locator('button[value="deny"]').click();
          const url = await atTheApp(page);
          expect(url.searchParams.get('error')).toBe('access_denied');
          expect(url.searchParams.get('state')).toBe('denied');
          expect(url.searchParams.get('iss')).toBe(s.base);
        }),
      60_000,
    );

    it(
      "a redirect URI that is not registered stays on the service's error page, never reaching it",
      () =>
        inFreshBrowser(async (page) => {
          const response = await page.goto(authorizeUrl('profile', 'wrong', `${redirectUri}/elsewhere`));
          expect(response?.status()).toBe(400);
          expect(new URL(page.url()).origin).toBe(s.base);
          await expect.poll(() => page.locator('body').textContent(), { timeout: 10_000 }).toContain('redirect_uri');
        }),
      60_000,
    );
  },
);
