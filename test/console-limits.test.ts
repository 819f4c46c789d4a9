import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_TEXT, fill } from '../src/modules/console/console-text.js';
import { ConsoleForms } from './helpers/console-forms.js';
import { injectSend } from './helpers/oauth-browser.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

/**
 * How many apps a builder may have and how many webhook endpoints an app may (APPS_PER_BUILDER,
 * WEBHOOK_ENDPOINTS_PER_APP): shown on the console's pages, and one more refused with the rule, nothing made.
 */
describe.each(ENGINES)('console limits on %s', (engine) => {
  let t: TestContext;
  let forms: ConsoleForms;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      config: { APPS_PER_BUILDER: '2', WEBHOOK_ENDPOINTS_PER_APP: '2', WEBHOOKS_ALLOW_LOOPBACK: 'true' },
    });
    forms = new ConsoleForms(injectSend(t.app));
    await forms.signIn(t.demo.user);
  });
  afterAll(async () => {
    await t?.close();
  });
  const ko = CONSOLE_TEXT.ko;
  const apps = async () =>
    (
      await t.db.database.db
        .selectFrom('apps')
        .select('id')
        .where('owner_user_id', '=', t.demo.user.id)
        .where('deleted_at', 'is', null)
        .execute()
    ).length;

  it('refuses app names with hidden characters (a direction override, a zero-width space, U+0000), making and renaming nothing', async () => {
    const before = await apps();
    for (const name of ['Demo app\u202E', 'Demo\u200Bapp', 'Demo\u0000app']) {
      const refused = await forms.post('/console/apps', { name });
      expect(refused.status, JSON.stringify(name)).toBe(400);
      // U+0000 is refused by the form parser before the page (as in every form and body); the others by the page's rule.
      if (!name.includes('\u0000')) expect(refused.body).toContain(ko.nameRule);
    }
    expect(await apps()).toBe(before);
    const { appId } = await forms.createApp('보이는 이름');
    const renamed = await forms.post(`/console/apps/${appId}`, { name: '보이는\u2066 이름' });
    expect(renamed.status).toBe(400);
    expect(
      (await t.db.database.db.selectFrom('apps').select('name').where('id', '=', appId).executeTakeFirstOrThrow()).name,
    ).toBe('보이는 이름');
    await forms.post(`/console/apps/${appId}/delete`, { confirm: 'yes' });
  });

  it('shows how many apps a builder has of the most, and refuses one more', async () => {
    const before = await apps();
    expect((await forms.browser.request('GET', '/console/apps')).body).toContain(
      fill(ko.appsQuota, { used: before, max: 2 }),
    );
    while ((await apps()) < 2) await forms.createApp(`앱 ${await apps()}`);
    const page = (await forms.browser.request('GET', '/console/apps')).body;
    expect(page).toContain(fill(ko.appsQuota, { used: 2, max: 2 }));
    expect(page).toContain(fill(ko.appsFull, { max: 2 }));
    expect(page).not.toContain('action="/console/apps" ');
    const refused = await forms.post('/console/apps', { name: '하나 더' });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(fill(ko.appsFull, { max: 2 }));
    expect(await apps()).toBe(2);
  });

  it('shows how many endpoints an app has of the most, and refuses one more', async () => {
    const { id: appId } = await t.db.database.db
      .selectFrom('apps')
      .select('id')
      .where('owner_user_id', '=', t.demo.user.id)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const page = async () => (await forms.browser.request('GET', `/console/apps/${appId}/webhooks`)).body;
    expect(await page()).toContain(fill(ko.wh.quota, { used: 0, max: 2 }));
    await forms.createEndpoint(appId, 'http://127.0.0.1:9/a');
    await forms.createEndpoint(appId, 'http://127.0.0.1:9/b');
    expect(await page()).toContain(fill(ko.wh.quota, { used: 2, max: 2 }));
    expect(await page()).toContain(fill(ko.wh.tooMany, { max: 2 }));
    const refused = await forms.post(`/console/apps/${appId}/webhooks`, { url: 'http://127.0.0.1:9/c' });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(fill(ko.wh.tooMany, { max: 2 }));
    expect(
      await t.db.database.db.selectFrom('webhook_endpoints').select('id').where('app_id', '=', appId).execute(),
    ).toHaveLength(2);
  });
});
