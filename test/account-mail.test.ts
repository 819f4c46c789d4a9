import fs from 'node:fs';
import { simpleParser } from 'mailparser';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleForms } from './helpers/console-forms.js';
import { startListeningApp, startOfNextWindow, type ListeningApp } from './helpers/listening-app.js';
import { Browser, fetchSend, hiddenField } from './helpers/oauth-browser.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.js';
import { ENGINES } from './helpers/test-database.js';
import { createUser } from './helpers/tokens.js';
import type { TestContext } from './helpers/test-app.js';

const WINDOW_MS = 15 * 60_000;

describe.each(ENGINES)('console mail: password reset and address confirmation on %s', (engine) => {
  let s: ListeningApp;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    s = await startListeningApp(engine, {
      SMTP_URL: inbox.url,
      MAIL_FROM: 'console@svc.example',
      CONSOLE_SIGN_UP: 'open',
    });
  });
  afterAll(async () => {
    await s?.close();
    await inbox?.close();
  });

  /** A browser without a session, on a page with a form: the page and its form token. */
  async function formPage(browser: Browser, url: string) {
    const page = await browser.request('GET', url);
    return { page, csrf: hiddenField(page.body, 'csrf_token') };
  }

  async function askReset(email: string, browser = new Browser(fetchSend(s.base))) {
    const { csrf } = await formPage(browser, '/console/forgot-password');
    return browser.request('POST', '/console/forgot-password', { csrf_token: csrf, email });
  }

  const account = async (handle: string) =>
    createUser({ db: s.db, clock: { now: Date.now() + s.clock.offset } } as unknown as TestContext, handle);
  const mailsTo = async (address: string, count: number) => {
    await expect.poll(() => inbox.to(address).length, { timeout: 10_000, interval: 20 }).toBe(count);
    return inbox.to(address);
  };

  it('mails a single-use reset link that ends every session, answering alike whether the account exists', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const user = await account('reset-owner');
    const elsewhere = new ConsoleForms(s.base);
    await elsewhere.signIn(user);

    const unknown = await askReset('nobody-here@example.com');
    const known = await askReset(user.email);
    // The same answer either way: to the page that says a link is on its way if an account has the address.
    expect([unknown.status, unknown.headers.location]).toEqual([303, '/console/forgot-password?sent=1']);
    expect([known.status, known.headers.location]).toEqual([303, '/console/forgot-password?sent=1']);
    const [mail] = await mailsTo(user.email, 1);
    expect(inbox.to('nobody-here@example.com')).toEqual([]);
    expect(mail!.from).toBe('console@svc.example');
    expect(mail!.subject).toBe('비밀번호 재설정');
    const link = linkIn(mail!, `${s.base}/console/reset-password?token=`);

    const browser = new Browser(fetchSend(s.base));
    const form = await formPage(browser, link.slice(s.base.length));
    expect(form.page.status).toBe(200);
    // A password the rules refuse changes nothing, and the link still works.
    const weak = await browser.request('POST', '/console/reset-password', {
      csrf_token: form.csrf,
      token: hiddenField(form.page.body, 'token'),
      password: 'password1234',
    });
    expect(weak.status).toBe(400);
    const done = await browser.request('POST', '/console/reset-password', {
      csrf_token: form.csrf,
      token: hiddenField(form.page.body, 'token'),
      password: 'a brand new correct horse 42',
    });
    expect([done.status, done.headers.location]).toEqual([303, '/console/sign-in?reset=done']);
    expect((await browser.request('GET', '/console/sign-in?reset=done')).body).toContain(
      '모든 기기에서 로그아웃되었으니',
    );

    // The other browser's session ended; the old password no longer signs in; the new one does.
    expect((await elsewhere.browser.request('GET', '/console/apps')).status).toBe(303);
    const fresh = new ConsoleForms(s.base);
    await expect(fresh.signIn(user)).rejects.toThrow();
    await new ConsoleForms(s.base).signIn({ email: user.email, password: 'a brand new correct horse 42' });

    // Once only.
    expect((await browser.request('GET', link.slice(s.base.length))).status).toBe(410);
    const replay = await browser.request('POST', '/console/reset-password', {
      csrf_token: form.csrf,
      token: hiddenField(form.page.body, 'token'),
      password: 'yet another fine passphrase 7',
    });
    expect(replay.status).toBe(410);
  });

  it('lets only the latest link work, and none after 30 minutes', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const user = await account('reset-twice');
    await askReset(user.email);
    await askReset(user.email);
    const [first, second] = await mailsTo(user.email, 2);
    const path = (mail: typeof first) => linkIn(mail!, `${s.base}/console/reset-password?token=`).slice(s.base.length);
    const browser = new Browser(fetchSend(s.base));
    expect((await browser.request('GET', path(first))).status).toBe(410);
    expect((await browser.request('GET', path(second))).status).toBe(200);
    s.clock.offset += 30 * 60_000 + 1_000;
    expect((await browser.request('GET', path(second))).status).toBe(410);
  });

  it('sends at most 3 links to one address in a window, refusing the rest with 429 whether an account has it or not', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const user = await account('reset-throttled');
    for (let i = 0; i < 3; i++) expect((await askReset(user.email)).status).toBe(303);
    expect((await askReset(user.email)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await askReset('ghost@example.com')).status).toBe(303);
    expect((await askReset('ghost@example.com')).status).toBe(429);
    await mailsTo(user.email, 3);
    startOfNextWindow(s.clock, WINDOW_MS);
    expect((await askReset(user.email)).status).toBe(303);
    await mailsTo(user.email, 4);
  });

  it('sends nothing to a disabled account', async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const user = await account('reset-disabled');
    await s.db.database.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', user.id).execute();
    expect((await askReset(user.email)).status).toBe(303);
    const other = await account('reset-control');
    await askReset(other.email);
    await mailsTo(other.email, 1);
    expect(inbox.to(user.email)).toEqual([]);
  });

  it("confirms a sign-up's address through the mailed link, and sends it again on request", async () => {
    startOfNextWindow(s.clock, WINDOW_MS);
    const browser = new Browser(fetchSend(s.base));
    const { csrf } = await formPage(browser, '/console/sign-up');
    const email = 'new-builder@example.com';
    const signedUp = await browser.request('POST', '/console/sign-up', {
      csrf_token: csrf,
      email,
      name: '새 빌더',
      handle: 'new-builder',
      password: 'a long and unusual phrase 9',
    });
    expect(signedUp.status).toBe(303);
    const verified = async () =>
      Number(
        (
          await s.db.database.db
            .selectFrom('users')
            .select('email_verified')
            .where('email', '=', email)
            .executeTakeFirstOrThrow()
        ).email_verified,
      );
    expect(await verified()).toBe(0);
    const [first] = await mailsTo(email, 1);
    expect(first!.subject).toBe('이메일 주소 확인');

    // The console asks for it on every page, with a button that sends the mail again (the first link then ends).
    const apps = await browser.request('GET', '/console/apps');
    expect(apps.body).toContain('new-builder@example.com 주소를 확인해 주세요');
    const again = await browser.request('POST', '/console/confirm-email/send', {
      csrf_token: hiddenField(apps.body, 'csrf_token'),
    });
    expect(again.status).toBe(200);
    const [, second] = await mailsTo(email, 2);
    const path = (mail: typeof first) => linkIn(mail!, `${s.base}/console/confirm-email?token=`).slice(s.base.length);
    expect((await browser.request('GET', path(first))).status).toBe(410);
    expect(await verified()).toBe(0);

    const confirmed = await browser.request('GET', path(second));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toContain('new-builder@example.com 주소를 확인했습니다.');
    expect(await verified()).toBe(1);
    expect((await browser.request('GET', '/console/apps')).body).not.toContain('주소를 확인해 주세요');
    expect((await browser.request('GET', path(second))).status).toBe(410);
  });

  it('treats accounts the operator made, and the demo user, as confirmed', async () => {
    const forms = new ConsoleForms(s.base);
    await forms.signIn(s.demo.user);
    expect((await forms.browser.request('GET', '/console/apps')).body).not.toContain('주소를 확인해 주세요');
  });
});

describe('console mail without SMTP_URL', () => {
  let s: ListeningApp;
  const logged: string[] = [];
  beforeAll(async () => {
    s = await startListeningApp(
      'sqlite',
      { LOG_LEVEL: 'info' },
      {
        level: 'info',
        stream: {
          write: (line: string) => {
            logged.push(line);
          },
        },
      },
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('writes each message to DATA_DIR/outbox/ and logs where, never the link', async () => {
    const browser = new Browser(fetchSend(s.base));
    const page = await browser.request('GET', '/console/forgot-password');
    expect(
      (
        await browser.request('POST', '/console/forgot-password', {
          csrf_token: hiddenField(page.body, 'csrf_token'),
          email: s.demo.user.email,
        })
      ).status,
    ).toBe(303);
    const outbox = path.join(s.config.dataDir, 'outbox');
    await expect
      .poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).length, { timeout: 10_000, interval: 20 })
      .toBe(2);
    const file = path.join(outbox, fs.readdirSync(outbox).find((name) => name.endsWith('.eml'))!);
    const message = await simpleParser(fs.readFileSync(file));
    expect(message.to).toMatchObject({ text: s.demo.user.email });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message.text ?? '')?.[1];
    expect(token).toBeDefined();
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    // Beside it, the same message in plain text: the link whole on one line, as `cat` shows it.
    const readable = fs.readFileSync(file.replace(/\.eml$/, '.txt'), 'utf8');
    expect(readable).toContain(`To: ${s.demo.user.email}`);
    expect(
      readable
        .split('\n')
        .some((line) => line.includes(`/console/reset-password?token=${token}`) || line.endsWith(`token=${token}`)),
    ).toBe(true);
    expect((fs.statSync(file.replace(/\.eml$/, '.txt')).mode & 0o777).toString(8)).toBe('600');
    const line = logged.find((l) => l.includes('written to the outbox'));
    expect(line).toContain(file);
    expect(logged.join('\n')).not.toContain(token!);
  });
});
