import fs from 'node:fs';
import * as oauth from 'oauth4webapi';
import path from 'node:path';
import AxeBuilder from './helpers/axe.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { Browser as FormBrowser, fetchSend, hiddenField } from './helpers/oauth-browser.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.js';

/** Screenshots go to docs/console/ when CONSOLE_SCREENSHOTS=docs (how docs/console.md's are made), else test/.screenshots/. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS === 'docs' ? 'docs/console' : 'test/.screenshots/console';
const HOUR = 3_600_000;

/**
 * The developer console in a real browser (Debian's chromium): a stranger signs up, creates an app, calls the
 * API with the key shown, rotates it with a one-hour overlap (both keys work, then the old one stops), and a
 * user disconnects an app they granted and sees its token refused. Every page passes axe-core with no serious
 * or critical violation.
 */
describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER)('developer console', () => {
  let s: ListeningApp;
  let browser: Browser;
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    s = await startListeningApp('sqlite', { CONSOLE_SIGN_UP: 'open', SMTP_URL: inbox.url });
    browser = await launchChromium();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await inbox?.close();
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

  /**
   * Opens the confirmation link mailed at sign-up (an account whose address is unconfirmed may make no app, key or
   * client), then goes back to the apps page.
   */
  async function confirmByMail(page: Page, email: string) {
    await expect.poll(() => inbox.to(email).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.goto(linkIn(inbox.to(email).at(-1)!, `${s.base}/console/confirm-email?token=`));
    expect(await page.locator('main .notice').textContent()).toBe(`${email} is confirmed.`);
    await page.goto(`${s.base}/console/apps`);
  }

  const api = (key: string) =>
    fetch(`${s.base}/api/v1/jobs?pageSize=1`, { headers: { 'x-svc-api-key': key } }).then((r) => r.status);

  it('takes a stranger from sign-up to a working key rotated with an overlap, and an OAuth client with two redirect URIs used through its consent page', async () => {
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const page = await context.newPage();
    await page.goto(`${s.base}/console`);
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/sign-in`);
    await check(page, 'sign-in');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await check(page, 'sign-up');
    await page.getByLabel('E-mail').fill('builder@example.com');
    await page.getByLabel('Name').fill('Bea Builder');
    await page.getByLabel('Handle').fill('bea');
    await page.getByLabel('Password').fill('a-long-password-2026');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    // Until the address is confirmed, the page offers no app to create.
    expect(await page.locator('#apps-unproven').textContent()).toContain(
      'Confirm builder@example.com before you create',
    );
    expect(await page.getByLabel('App name').count()).toBe(0);
    await confirmByMail(page, 'builder@example.com');
    await check(page, 'apps');

    await page.getByLabel('App name').fill('Job board widget');
    await page.getByLabel('Description').fill('Shows open positions on our site');
    await page.getByRole('button', { name: 'Create an app' }).click();
    const firstKey = (await page.locator('#app-key').textContent())!.trim();
    expect(firstKey).toMatch(/^svck_[0-9A-Za-z]{32}$/);
    await check(page, 'app-new-key');
    expect(await api(firstKey)).toBe(200);

    await page.getByLabel('Homepage URL (https)').fill('https://widget.example/');
    await page.getByLabel('Privacy policy URL (https)').fill('https://widget.example/privacy');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.notice').textContent(), { timeout: 10_000 }).toBe('Saved.');

    await page.getByLabel('How long the current keys keep working').selectOption('1h');
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    const secondKey = (await page.locator('#app-key').textContent())!.trim();
    expect(secondKey).not.toBe(firstKey);
    expect(await api(firstKey)).toBe(200);
    expect(await api(secondKey)).toBe(200);
    await expect.poll(() => page.locator('tbody').first().textContent(), { timeout: 10_000 }).toContain('Works until');
    await check(page, 'app-rotated');
    // Reloading the page that showed the key rotates nothing and shows the key no more (Post/Redirect/Get).
    const keyRows = await page.locator('tbody').first().locator('tr').count();
    await page.reload();
    await expect
      .poll(() => page.locator('.notice').textContent(), { timeout: 10_000 })
      .toBe('A new key or secret is shown only once. If you lost it, issue a new one.');
    expect(await page.locator('#app-key').count()).toBe(0);
    expect(await page.locator('tbody').first().locator('tr').count()).toBe(keyRows);
    expect(await api(secondKey)).toBe(200);

    s.clock.offset += HOUR + 1_000;
    expect(await api(firstKey)).toBe(401);
    expect(await api(secondKey)).toBe(200);
    await page.reload();
    // Revoking is a destructive act: the button does nothing until its confirmation is ticked.
    await page.getByRole('button', { name: `Revoke ${secondKey.slice(-4)}` }).click();
    await page.waitForTimeout(300);
    expect(await page.locator('tbody').first().textContent()).not.toContain('Revoked');
    expect(await api(secondKey)).toBe(200);
    // Ticked, it stops the key at once (on this instance; elsewhere within API_KEY_CACHE_SECONDS).
    await page
      .getByRole('row', { name: new RegExp(secondKey.slice(-4)) })
      .getByRole('checkbox', { name: 'Requests with this key are refused at once' })
      .check();
    await page.getByRole('button', { name: `Revoke ${secondKey.slice(-4)}` }).click();
    await expect.poll(() => page.locator('tbody').first().textContent(), { timeout: 10_000 }).toContain('Revoked');
    expect(await api(secondKey)).toBe(401);

    // The calls just made are on the usage page once the counter has written them (every few seconds).
    await s.app.usage.flush();
    await page.getByRole('link', { name: 'Usage' }).click();
    const usage = await page.locator('main').textContent();
    expect(usage).toContain('searchJobs');
    expect(usage).toContain('Last hour, by minute (UTC)');
    expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(0);
    await check(page, 'usage');
    // The same calls one by one in the request log, with a filter by status.
    await s.app.requestLog.flush();
    await page.getByRole('link', { name: 'Job board widget' }).click();
    await page.getByRole('link', { name: 'Request log' }).click();
    const logged = await page.locator('table.requests tbody').textContent();
    expect(logged).toContain('searchJobs');
    expect(await page.locator('table.requests tbody tr').count()).toBeGreaterThanOrEqual(2);
    await check(page, 'requests');
    await page.getByRole('link', { name: 'Errors (400 and up)' }).click();
    await expect.poll(() => page.locator('main strong[aria-current="page"]').textContent()).toBe('Errors (400 and up)');
    for (const status of await page.locator('table.requests tbody tr td:nth-child(3)').allTextContents())
      expect(Number(status)).toBeGreaterThanOrEqual(400);
    await page.getByRole('link', { name: 'Job board widget' }).click();
    let audit = await page.locator('section[aria-labelledby="audit"]').textContent();
    expect(audit).toContain('key.rotated');
    expect(audit).toContain('New key issued'); // each action in words of the page's language, its code beside it
    expect(audit).toContain('builder@example.com');
    s.clock.offset = 0;

    // An OAuth client with two redirect URIs, then the flow through the consent page with an independent
    // client library (oauth4webapi), landing on the second redirect URI.
    const callbackBase = 'http://localhost:18765';
    await page.getByLabel(/Redirect URIs/).fill(`https://widget.example/oauth/callback\n${callbackBase}/cb`);
    await page.getByLabel(/post:write/).check();
    await page.getByRole('button', { name: 'Create the client' }).click();
    const clientId = (await page.locator('#client-id').textContent())!.trim();
    const clientSecret = (await page.locator('#client-secret').textContent())!.trim();
    expect(clientId).toMatch(/^svcc_/);
    expect(clientSecret).toMatch(/^svcs_/);
    await check(page, 'app-client');

    const issuer = new URL(s.base);
    const insecure = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `${callbackBase}/cb`,
      scope: 'profile post:write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    let landed = '';
    await page.route(`${callbackBase}/**`, async (route) => {
      landed = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback' });
    });
    await page.goto(authorize.toString());
    expect(await page.locator('main').textContent()).toContain('Job board widget asks for these permissions');
    await check(page, 'consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${callbackBase}/cb?**`);
    expect(landed).toContain(`${callbackBase}/cb?`);
    const params = oauth.validateAuthResponse(as, client, new URL(landed), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(clientSecret),
        params,
        `${callbackBase}/cb`,
        verifier,
        insecure,
      ),
    );
    expect(tokens.scope).toBe('profile post:write');
    const me = await fetch(`${s.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);

    // The stranger disconnects their own app in Connected apps: its token is refused.
    await page.goto(`${s.base}/console/connected`);
    await page.getByRole('button', { name: 'Disconnect Job board widget' }).click();
    await expect.poll(() => page.locator('main').textContent(), { timeout: 10_000 }).toContain('No connected apps.');
    expect(
      (await fetch(`${s.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status,
    ).toBe(401);

    // Changing the redirect URIs and rotating the secret are in the audit trail.
    await page.goto(`${s.base}/console/apps`);
    await page.getByRole('link', { name: 'Job board widget' }).click();
    await page.getByLabel(/Redirect URIs/).fill(`${callbackBase}/cb`);
    await page.getByRole('button', { name: 'Save redirect URIs and permissions' }).click();
    await page.getByLabel('How long the current secret keeps working').selectOption('1h');
    await page.getByRole('button', { name: 'Issue a new secret' }).click();
    expect((await page.locator('#client-secret').textContent())!.trim()).not.toBe(clientSecret);
    audit = await page.locator('section[aria-labelledby="audit"]').textContent();
    expect(audit).toContain('client.created');
    expect(audit).toContain('client.redirect_uris_changed');
    expect(audit).toContain('secret.rotated');

    // Another user's app is not there for this one.
    const demoApp = await s.db.database.db
      .selectFrom('apps')
      .select('id')
      .where('name', '=', 'Demo app')
      .executeTakeFirstOrThrow();
    const other = await page.goto(`${s.base}/console/apps/${demoApp.id}`);
    expect(other!.status()).toBe(404);
    await check(page, 'not-found');
    await context.close();
  }, 60_000);

  it("confirms a new account's address by mail, and gets a builder back in with a mailed reset link", async () => {
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const page = await context.newPage();
    const email = 'forgetful@example.com';
    await page.goto(`${s.base}/console/sign-up`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Name').fill('Fay Forgetful');
    await page.getByLabel('Handle').fill('fay');
    await page.getByLabel('Password').fill('the first passphrase 2026');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    expect(await page.locator('#unconfirmed').textContent()).toContain(`Please confirm ${email}`);
    await check(page, 'apps-unconfirmed');
    await expect.poll(() => inbox.to(email).length, { timeout: 10_000 }).toBe(1);
    const confirmation = inbox.to(email)[0]!;
    expect(confirmation.subject).toBe('Confirm your e-mail address');
    await page.goto(linkIn(confirmation, `${s.base}/console/confirm-email?token=`));
    expect(await page.locator('main .notice').textContent()).toBe(`${email} is confirmed.`);
    await page.getByRole('link', { name: 'Apps', exact: true }).first().click();
    await expect.poll(() => page.url()).toBe(`${s.base}/console/apps`);
    expect(await page.locator('#unconfirmed').count()).toBe(0);

    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await check(page, 'forgot-password');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.locator('main').textContent()).toContain(
      'If an account uses this address, a link is on its way.',
    );
    await expect.poll(() => inbox.to(email).length, { timeout: 10_000 }).toBe(2);
    const reset = inbox.to(email)[1]!;
    expect(reset.subject).toBe('Reset your password');
    await page.goto(linkIn(reset, `${s.base}/console/reset-password?token=`));
    await check(page, 'reset-password');
    await page.getByLabel('New password').fill('the second passphrase 2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.locator('main .notice').textContent()).toContain('signed out everywhere');
    await check(page, 'reset-done');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('the second passphrase 2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    await context.close();
  }, 60_000);

  it('changes nothing when a result page is reloaded: a created app, a created client, a rotated secret, a deleted app', async () => {
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const page = await context.newPage();
    const { db } = s.db.database;
    await page.goto(`${s.base}/console/sign-up`);
    await page.getByLabel('E-mail').fill('reloader@example.com');
    await page.getByLabel('Name').fill('Rae Reloader');
    await page.getByLabel('Handle').fill('rae');
    await page.getByLabel('Password').fill('a-long-password-2027');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    await confirmByMail(page, 'reloader@example.com');
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'reloader@example.com')
      .executeTakeFirstOrThrow();
    const apps = async () =>
      (
        await db
          .selectFrom('apps')
          .select('id')
          .where('owner_user_id', '=', owner.id)
          .where('deleted_at', 'is', null)
          .execute()
      ).length;
    /** The result page has arrived and shows the secret once. */
    const shown = async (selector: string) => {
      await expect.poll(() => page.locator(selector).count(), { timeout: 10_000 }).toBe(1);
      await page.waitForLoadState('load');
    };
    const audit = async (action: string) =>
      (await page.locator('section[aria-labelledby="audit"]').textContent())!.split(action).length - 1;

    await page.getByLabel('App name').fill('Reload test');
    await page.getByRole('button', { name: 'Create an app' }).click();
    await shown('#app-key');
    await page.reload();
    expect(await page.locator('#app-key').count()).toBe(0);
    expect(await apps()).toBe(1);

    await page.getByLabel(/Redirect URIs/).fill('https://reload.example/cb');
    await page.getByRole('button', { name: 'Create the client' }).click();
    await shown('#client-secret');
    await page.reload();
    expect(await page.locator('#client-secret').count()).toBe(0);
    expect(await audit('client.created')).toBe(1);

    await page.getByRole('button', { name: 'Issue a new secret' }).click();
    await shown('#client-secret');
    await page.reload();
    expect(await page.locator('#client-secret').count()).toBe(0);
    expect(await audit('secret.rotated')).toBe(1);

    await page.getByRole('checkbox', { name: /Delete this app/ }).check();
    await page.getByRole('button', { name: 'Delete app' }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${s.base}/console/apps`);
    await page.waitForLoadState('load');
    expect(await apps()).toBe(0);
    const again = await page.reload();
    expect(again!.status()).toBe(200);
    expect(page.url()).toBe(`${s.base}/console/apps`);
    expect(await apps()).toBe(0);
    await context.close();
  }, 60_000);

  it('shows the apps a user granted and disconnects one: its token is refused', async () => {
    // The demo user grants the demo client (the OAuth flow through the sign-in and consent pages).
    const forms = new FormBrowser(fetchSend(s.base));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: s.demo.client.clientId,
      redirect_uri: s.demo.client.redirectUri,
      scope: 'profile post:write',
      state: 'st',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const callback = await forms.authorize(`/oauth/authorize?${query}`, s.demo.user);
    const tokenResponse = await fetch(`${s.base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${s.demo.client.clientId}:${s.demo.client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: s.demo.client.redirectUri,
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      }),
    });
    const tokens = (await tokenResponse.json()) as { access_token: string };
    const me = () =>
      fetch(`${s.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }).then(
        (r) => r.status,
      );
    expect(await me()).toBe(200);

    const context = await browser.newContext({ extraHTTPHeaders: { 'accept-language': 'ko' } });
    const page = await context.newPage();
    await page.goto(`${s.base}/console/sign-in`);
    await page.getByLabel('이메일').fill(s.demo.user.email);
    await page.getByLabel('비밀번호').fill(s.demo.user.password);
    await page.getByRole('button', { name: '로그인' }).click();
    await page.getByRole('link', { name: '연결된 앱' }).click();
    await expect.poll(() => page.locator('tbody').textContent(), { timeout: 10_000 }).toContain('post:write');
    await check(page, 'connected');
    await page
      .getByRole('button', { name: /허용 취소/ })
      .first()
      .click();
    await expect.poll(() => page.locator('main').textContent(), { timeout: 10_000 }).toContain('연결된 앱이 없습니다.');
    expect(await me()).toBe(401);

    await page.getByRole('link', { name: '비밀번호' }).click();
    await check(page, 'password');
    await context.close();
  }, 60_000);

  it('refuses a form without its token, and a signed-out visitor', async () => {
    const forms = new FormBrowser(fetchSend(s.base));
    const signIn = await forms.request('GET', '/console/sign-in');
    expect(signIn.status).toBe(200);
    const refused = await forms.request('POST', '/console/sign-in', {
      email: s.demo.user.email,
      password: s.demo.user.password,
      csrf_token: 'forged',
    });
    expect(refused.status).toBe(403);
    const apps = await forms.request('GET', '/console/apps');
    expect(apps.status).toBe(303);
    expect(apps.headers.location).toBe('/console/sign-in');
    // Signed in, a cross-site post without the form token changes nothing.
    const token = /name="csrf_token" value="([^"]+)"/.exec(signIn.body)![1]!;
    expect(
      (
        await forms.request('POST', '/console/sign-in', {
          email: s.demo.user.email,
          password: s.demo.user.password,
          csrf_token: token,
        })
      ).status,
    ).toBe(303);
    const before = await s.db.database.db.selectFrom('apps').select('id').execute();
    expect((await forms.request('POST', '/console/apps', { name: 'Forged' })).status).toBe(403);
    expect(await s.db.database.db.selectFrom('apps').select('id').execute()).toHaveLength(before.length);
  });

  it("takes an app's web addresses over https, or http on 127.0.0.1, localhost or [::1], and nothing else", async () => {
    const forms = new FormBrowser(fetchSend(s.base));
    const signIn = await forms.request('GET', '/console/sign-in');
    let token = hiddenField(signIn.body, 'csrf_token');
    expect(
      (
        await forms.request('POST', '/console/sign-in', {
          email: s.demo.user.email,
          password: s.demo.user.password,
          csrf_token: token,
        })
      ).status,
    ).toBe(303);
    const list = await forms.request('GET', '/console/apps');
    token = hiddenField(list.body, 'csrf_token');
    const created = await forms.request('POST', '/console/apps', { name: 'Addresses', csrf_token: token });
    expect(created.status).toBe(303);
    const appId = Number(/\/console\/apps\/(\d+)/.exec(created.headers.location as string)![1]);
    const profile = () =>
      s.db.database.db
        .selectFrom('apps')
        .select(['homepage_url', 'privacy_url'])
        .where('id', '=', appId)
        .executeTakeFirstOrThrow();
    for (const address of [
      'https://widget.example/',
      'http://127.0.0.1:8080/',
      'http://localhost:3000/',
      'http://[::1]:8080/',
    ]) {
      const saved = await forms.request('POST', `/console/apps/${appId}`, {
        name: 'Addresses',
        homepage_url: address,
        csrf_token: token,
      });
      expect(saved.status, address).toBe(200);
      expect((await profile()).homepage_url).toBe(address);
    }
    for (const address of ['http://widget.example/', 'ftp://widget.example/', 'javascript:alert(1)', 'not a url']) {
      const refused = await forms.request('POST', `/console/apps/${appId}`, {
        name: 'Addresses',
        privacy_url: address,
        csrf_token: token,
      });
      expect(refused.status, address).toBe(400);
      expect(await profile()).toEqual({ homepage_url: 'http://[::1]:8080/', privacy_url: null });
    }
    // Web origins: https (or http on loopback) origins without a path, one a line; anything else refused, nothing saved.
    const origins = () =>
      s.db.database.db
        .selectFrom('apps')
        .select('web_origins')
        .where('id', '=', appId)
        .executeTakeFirstOrThrow()
        .then((r) => JSON.parse(r.web_origins));
    const saved = await forms.request('POST', `/console/apps/${appId}`, {
      name: 'Addresses',
      web_origins: 'https://widget.example\nhttp://localhost:3000/\n\nhttps://widget.example',
      csrf_token: token,
    });
    expect(saved.status).toBe(200);
    expect(await origins()).toEqual(['https://widget.example', 'http://localhost:3000']);
    for (const bad of [
      'https://widget.example/app',
      'http://widget.example',
      'widget.example',
      'https://a.example?x=1',
    ]) {
      const refused = await forms.request('POST', `/console/apps/${appId}`, {
        name: 'Addresses',
        web_origins: `https://ok.example\n${bad}`,
        csrf_token: token,
      });
      expect(refused.status, bad).toBe(400);
      expect(refused.body, bad).toContain(bad.replace(/&/g, '&amp;'));
      expect(await origins()).toEqual(['https://widget.example', 'http://localhost:3000']);
    }
    // A key id that is not a number names no key of the app.
    expect((await forms.request('POST', `/console/apps/${appId}/keys/x1/revoke`, { csrf_token: token })).status).toBe(
      404,
    );
  });

  it("keeps what was typed in a refused form and marks the field with its rule: the client's URIs, type and scopes, the profile, the sign-up", async () => {
    const context = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const page = await context.newPage();
    await page.goto(`${s.base}/console/sign-in`);
    await page.getByLabel('E-mail').fill(s.demo.user.email);
    await page.getByLabel('Password').fill(s.demo.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('App name').fill('Kept input');
    await page.getByRole('button', { name: 'Create an app' }).click();
    await expect.poll(() => page.url()).toMatch(/\/console\/apps\/\d+/);

    // One bad redirect URI among good ones: nothing is made, and nothing typed is lost.
    const uris = 'https://kept.example/cb\nhttp://kept.example/insecure\nhttp://localhost:9000/cb';
    await page.getByRole('radio', { name: /Public/ }).check();
    await page.getByLabel(/Redirect URIs/).fill(uris);
    await page.getByRole('checkbox', { name: /post:write/ }).check();
    await page.getByRole('button', { name: 'Create the client' }).click();
    await expect
      .poll(() => page.locator('p.field-error').first().textContent())
      .toContain('http://kept.example/insecure');
    expect(await page.getByLabel(/Redirect URIs/).inputValue()).toBe(uris);
    expect(await page.getByLabel(/Redirect URIs/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('radio', { name: /Public/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /post:write/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /^profile\s/ }).isChecked()).toBe(true);
    await check(page, 'client-refused');
    expect(
      await s.db.database.db.selectFrom('oauth_clients').select('client_id').where('name', '=', 'Kept input').execute(),
    ).toEqual([]);

    // The profile: the wrong field is marked with its rule, the others keep what was typed.
    await page.getByLabel('App name').fill('Kept input, renamed');
    await page.getByLabel('Homepage URL (https)').fill('http://kept.example/');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#homepage_url-error').textContent()).toContain('https address');
    expect(await page.getByLabel('App name').inputValue()).toBe('Kept input, renamed');
    expect(await page.getByLabel('Homepage URL (https)').inputValue()).toBe('http://kept.example/');
    await context.close();

    // Sign-up: a guessable password is told why (the browser itself holds back one under 12 characters).
    const visitor = await browser.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
    const signUp = await visitor.newPage();
    await signUp.goto(`${s.base}/console/sign-up`);
    await signUp.getByLabel('E-mail').fill('guessable@example.com');
    await signUp.getByLabel('Name', { exact: true }).fill('Guessable');
    await signUp.getByLabel(/^Handle/).fill('guessable-pw');
    await signUp.getByLabel(/^Password/).fill('password1234');
    await signUp.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => signUp.locator('p.error').textContent()).toContain('easy to guess');
    expect(await signUp.getByLabel('E-mail').inputValue()).toBe('guessable@example.com');
    expect(await signUp.getByLabel(/^Handle/).inputValue()).toBe('guessable-pw');
    await visitor.close();
  });
});

describe('developer console with sign-up closed', () => {
  it('has no sign-up page', async () => {
    const s = await startListeningApp('sqlite');
    try {
      const page = await fetch(`${s.base}/console/sign-up`);
      expect(page.status).toBe(404);
      const signIn = await (await fetch(`${s.base}/console/sign-in`)).text();
      expect(signIn).not.toContain('/console/sign-up');
      expect(
        (
          await fetch(`${s.base}/console/sign-up`, {
            method: 'POST',
            body: new URLSearchParams({ email: 'x@example.com' }),
          })
        ).status,
      ).toBe(404);
    } finally {
      await s.close();
    }
  });
});
