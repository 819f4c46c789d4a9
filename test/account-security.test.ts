import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { CONSOLE_TEXT } from '../src/modules/console/console-text.js';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { Browser, fetchSend, hiddenField } from './helpers/oauth-browser.js';
import type { TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';

const WINDOW_MS = 900_000;

/**
 * Issue 22 row 9, through the console's real forms over HTTP: a password change signs out every other
 * browser, its current-password check is throttled like a sign-in, sign-ups are throttled per address, and
 * guessable passwords are refused (zxcvbn-ts, modules/accounts/password-policy.ts).
 */
describe.each(ENGINES)('console account security on %s', (engine) => {
  let a: ListeningApp;
  beforeAll(async () => {
    a = await startListeningApp(engine, {
      CONSOLE_SIGN_UP: 'open',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
    });
  });
  afterAll(async () => {
    await a?.close();
  });

  /** A browser of its own (its own cookies) that posts each form with the token of the page that shows it. */
  const visitor = async () => {
    const browser = new Browser(fetchSend(a.base));
    const post = async (path: string, fields: Record<string, string>) => {
      const csrf = hiddenField((await browser.request('GET', path)).body, 'csrf_token');
      return browser.request('POST', path, { ...fields, csrf_token: csrf });
    };
    return { post, get: (path: string) => browser.request('GET', path) };
  };
  const account = (n: string) => ({
    email: `builder-${n}@example.com`,
    name: `Builder ${n}`,
    handle: `builder-${n}`,
    password: 'a-long-password-2026',
  });

  it('refuses guessable passwords at sign-up and takes a strong one', async () => {
    const v = await visitor();
    for (const password of ['aaaaaaaaaaaa', 'password1234', 'qwertyuiop12', '123456789012']) {
      const res = await v.post('/console/sign-up', { ...account('weak'), password });
      expect(res.status, password).toBe(400);
      expect(res.body).toContain(CONSOLE_TEXT.ko.guessable);
    }
    expect((await v.post('/console/sign-up', account('weak'))).status).toBe(303);
  });

  it('ends every other session on a password change, and throttles its current-password check', async () => {
    startOfNextWindow(a.clock, WINDOW_MS);
    const user = account('sessions');
    const first = await visitor();
    expect((await first.post('/console/sign-up', user)).status).toBe(303);
    const second = await visitor();
    expect((await second.post('/console/sign-in', { email: user.email, password: user.password })).status).toBe(303);
    expect((await second.get('/console/apps')).status).toBe(200);

    // Three wrong guesses of the current password, then the account's limit refuses even the right one.
    for (let i = 0; i < 3; i++)
      expect(
        (await first.post('/console/password', { current: `wrong guess ${i}`, password: 'another-long-password-77' }))
          .status,
      ).toBe(401);
    expect(
      (await first.post('/console/password', { current: user.password, password: 'another-long-password-77' })).status,
    ).toBe(429);
    expect((await first.post('/console/password', { current: user.password, password: 'aaaaaaaaaaaa' })).status).toBe(
      400,
    );

    a.clock.offset += WINDOW_MS;
    const changed = await first.post('/console/password', {
      current: user.password,
      password: 'another-long-password-77',
    });
    expect(changed.status, changed.body).toBe(200);
    expect(changed.body).toContain(CONSOLE_TEXT.ko.passwordChanged);
    // The other browser is signed out; this one carries on with a new session.
    expect((await second.get('/console/apps')).status).toBe(303);
    expect((await first.get('/console/apps')).status).toBe(200);
    const third = await visitor();
    expect((await third.post('/console/sign-in', { email: user.email, password: user.password })).status).toBe(401);
    expect(
      (await third.post('/console/sign-in', { email: user.email, password: 'another-long-password-77' })).status,
    ).toBe(303);
  });

  it('refuses a form token that is only a cookie planted in the browser: tokens are bound to the session', async () => {
    const forms = new ConsoleForms(a.base);
    await forms.signIn(a.demo.user);
    const apps = async () =>
      (await forms.browser.request('GET', '/console/apps')).body.match(/action="\/console\/apps\/\d+\/delete"/g)
        ?.length ?? 0;
    const before = await apps();
    // A sibling site (or plain http) sets the form cookie to a value of its choosing and submits the same value.
    const planted = 'B'.repeat(43);
    forms.browser.cookies.set('svc_csrf', planted);
    const forged = await forms.browser.request('POST', '/console/apps', [
      ['csrf_token', planted],
      ['name', '심어 둔 쿠키로 만든 앱'],
    ]);
    expect(forged.status).toBe(403);
    expect(await apps()).toBe(before);
    // The token of the page itself still works in the same browser, planted cookie and all.
    const page = await forms.browser.request('GET', '/console/apps');
    const made = await forms.browser.request('POST', '/console/apps', [
      ['csrf_token', hiddenField(page.body, 'csrf_token')],
      ['name', '제대로 만든 앱'],
    ]);
    expect(made.status).toBe(303);
  });

  it('lets an operator disable an account: it cannot sign in, its sessions and grants end; enabled, it signs in again', async () => {
    const lines: string[] = [];
    const io = {
      out: (line: string) => {
        lines.push(line);
      },
      err: (line: string) => {
        lines.push(line);
      },
    };
    const env = {
      DATA_DIR: a.config.dataDir,
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_MEMORY_KIB: '19456',
      PASSWORD_HASH_PASSES: '2',
      DATABASE_URL:
        engine === 'sqlite'
          ? a.db.file!
          : `${a.db.url}${a.db.url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${a.db.schema}`)}`,
    };
    const user = { email: 'disabled-later@example.com', password: 'a-long-password-for-later' };
    expect(
      await runCli(
        [
          'users',
          'create',
          '--email',
          user.email,
          '--name',
          'Later',
          '--handle',
          'disabled-later',
          '--password',
          user.password,
        ],
        io,
        env,
      ),
      lines.join('\n'),
    ).toBe(0);
    const v = await visitor();
    expect((await v.post('/console/sign-in', user)).status).toBe(303);
    expect((await v.get('/console/apps')).status).toBe(200);
    const token = await accessToken({ app: a.app, demo: a.demo } as unknown as TestContext, 'profile', user);
    // A public profile (written with a token of its own: `token` is first used after the disable), which the disabled
    // account takes out of search and reads, and enabled brings back.
    const writer = await accessToken({ app: a.app, demo: a.demo } as unknown as TestContext, 'profile:write', user);
    const made = await fetch(`${a.base}/api/v1/me/profile`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ skills: ['Disable-Drill'], visibility: { profile: 'PUBLIC' } }),
    });
    expect(made.status).toBe(200);
    const profileShown = async () => {
      const key = { 'x-svc-api-key': a.demo.apiKey };
      const [detail, search] = await Promise.all([
        fetch(`${a.base}/api/v1/profiles/disabled-later`, { headers: key }),
        fetch(`${a.base}/api/v1/profiles?skills=disable-drill`, { headers: key }).then((r) => r.json()),
      ]);
      return [detail.status, (search as { totalItems: number }).totalItems];
    };
    expect(await profileShown()).toEqual([200, 1]);
    const cursor = (
      (await (
        await fetch(`${a.base}/api/v1/changes?after=now`, { headers: { 'x-svc-api-key': a.demo.apiKey } })
      ).json()) as { nextCursor: string }
    ).nextCursor;

    lines.length = 0;
    expect(await runCli(['users', 'disable', '--email', user.email], io, env), lines.join('\n')).toBe(0);
    expect(lines[0]).toMatch(/^disabled-later@example\.com disabled: its sessions ended and 2 grant\(s\) were revoked/);
    expect((await v.get('/console/apps')).status).toBe(303);
    const again = await visitor();
    expect((await again.post('/console/sign-in', user)).status).toBe(401);
    expect((await fetch(`${a.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
    expect(await runCli(['users', 'disable', '--email', user.email], io, env)).toBe(2);
    expect(await profileShown()).toEqual([404, 0]);
    const feed = (await (
      await fetch(`${a.base}/api/v1/changes?after=${cursor}&types=profile.deleted`, {
        headers: { 'x-svc-api-key': a.demo.apiKey },
      })
    ).json()) as { items: Array<{ resource: { id: string }; data: unknown }> };
    expect(feed.items).toEqual([
      expect.objectContaining({ resource: expect.objectContaining({ id: 'disabled-later' }), data: null }),
    ]);

    expect(await runCli(['users', 'enable', '--email', user.email], io, env)).toBe(0);
    expect(await profileShown()).toEqual([200, 1]);
    expect((await again.post('/console/sign-in', user)).status).toBe(303);
    // The grants it had stay revoked: apps ask the user anew.
    expect((await fetch(`${a.base}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
  });

  it('throttles sign-ups per address, an address already taken included', async () => {
    startOfNextWindow(a.clock, WINDOW_MS);
    const v = await visitor();
    for (let i = 0; i < 6; i++)
      expect(
        (await v.post('/console/sign-up', { ...account('probe'), email: a.demo.user.email, handle: `probe-${i}` }))
          .status,
      ).toBe(409);
    const refused = await v.post('/console/sign-up', { ...account('late'), handle: 'late-builder' });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain(CONSOLE_TEXT.ko.tooMany);
  });
});
