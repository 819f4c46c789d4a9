import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_TEXT } from '../src/modules/console/console-text.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { Browser, injectSend } from './helpers/oauth-browser.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

/**
 * The console's signed-in pages are behind one guard (src/modules/console/console-guard.ts), whatever room serves
 * them: no session is the sign-in page, a form without its token the "expired" page, another user's app 404, and a
 * form body its schema refuses the "invalid" page, each changing nothing.
 */
describe.each(ENGINES)('the console guard on %s', (engine) => {
  let t: TestContext;
  let forms: ConsoleForms;
  let appId: number;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
    forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
    ({ appId } = await forms.createApp('Guarded app'));
  });
  afterAll(async () => {
    await t?.close();
  });
  const ko = CONSOLE_TEXT.ko;
  const apps = async () =>
    (await t.db.database.db.selectFrom('apps').select('id').where('deleted_at', 'is', null).execute()).length;

  const pages = () => [
    '/console/apps',
    `/console/apps/${appId}`,
    `/console/apps/${appId}/usage`,
    `/console/apps/${appId}/requests`,
    `/console/apps/${appId}/webhooks`,
    '/console/password',
    '/console/connected',
  ];
  const forms_ = () => [
    '/console/apps',
    `/console/apps/${appId}`,
    `/console/apps/${appId}/delete`,
    `/console/apps/${appId}/keys/rotate`,
    `/console/apps/${appId}/client`,
    `/console/apps/${appId}/webhooks`,
    '/console/password',
    '/console/confirm-email/send',
  ];

  it('sends a visitor without a session to sign in, from every room', async () => {
    const stranger = new Browser(injectSend(t.app));
    for (const path of pages()) {
      const res = await stranger.request('GET', path);
      expect(res.status, path).toBe(303);
      expect(res.headers.location, path).toBe('/console/sign-in');
    }
  });

  it('answers a form without its token with the expired page, and changes nothing', async () => {
    const before = await apps();
    for (const path of forms_()) {
      const res = await forms.browser.request('POST', path, { name: 'no token', confirm: 'yes', overlap: 'none' });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toContain(ko.expired);
    }
    expect(await apps()).toBe(before);
  });

  it("answers another user's app, or one that is not there, with 404", async () => {
    const other = await t.db.database.db
      .insertInto('apps')
      .values({ name: 'Not yours', description: '', created_at: Date.now(), owner_user_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const id of [Number(other.id), 999_999, 'x']) {
      for (const path of [`/console/apps/${id}`, `/console/apps/${id}/usage`, `/console/apps/${id}/webhooks`]) {
        expect((await forms.browser.request('GET', path)).status, path).toBe(404);
      }
      expect((await forms.post(`/console/apps/${id}/delete`, { confirm: 'yes' })).status).toBe(404);
    }
    expect(
      await t.db.database.db
        .selectFrom('apps')
        .select('deleted_at')
        .where('id', '=', Number(other.id))
        .executeTakeFirstOrThrow(),
    ).toEqual({ deleted_at: null });
  });

  it('answers a form body its schema refuses (a field sent twice) with the invalid page, and makes nothing', async () => {
    const before = await apps();
    const res = await forms.post('/console/apps', { name: ['one', 'two'] });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(ko.invalid);
    expect(await apps()).toBe(before);
  });
});
