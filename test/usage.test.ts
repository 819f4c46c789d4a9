import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageReport } from '../src/modules/apps/usage.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';

/** Calls counted per app, minute, operation and status class, for the console's usage page (issue 14). */
describe.each(ENGINES)('usage counting on %s', (engine) => {
  let t: TestContext;
  let appId: number;
  beforeAll(async () => {
    t = await createTestApp(engine, { config: { RATE_LIMIT_GLOBAL_PER_MINUTE: '4' } });
    appId = (
      await t.db.database.db.selectFrom('apps').select('id').where('name', '=', 'Demo app').executeTakeFirstOrThrow()
    ).id;
    await t.db.database.db
      .updateTable('oauth_clients')
      .set({ app_id: appId })
      .where('client_id', '=', t.demo.client.clientId)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts app-key and Bearer calls by operation and status class, 429s apart, and what is left of the minute', async () => {
    for (let i = 0; i < 3; i++) expect((await t.get('/api/v1/jobs?pageSize=1')).statusCode).toBe(200);
    expect((await t.get('/api/v1/jobs/987654321')).statusCode).toBe(404);
    expect((await t.get('/api/v1/jobs?pageSize=2')).statusCode).toBe(429);
    expect((await t.get('/api/v1/jobs?pageSize=3')).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/jobs' })).statusCode).toBe(401);
    const token = await accessToken(t, 'company:manage:read');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me/company-permissions',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode, me.body).toBe(200);

    // Nothing is written until the counter flushes (every 5 s, and on close).
    await t.app.usage.flush();
    const report = await usageReport(t.db.database.db, appId, t.clock.now);
    expect(report.minutes.at(-1)!.byClass).toEqual({ '2xx': 4, '3xx': 0, '4xx': 1, '5xx': 0, '429': 2 });
    expect(report.days.at(-1)!.byClass['2xx']).toBe(4);
    expect(report.operations).toEqual(
      expect.arrayContaining([
        { operation: 'searchJobs', calls: 5, refused: 2 },
        { operation: 'getJob', calls: 1, refused: 0 },
        { operation: 'getMyCompanyPermissions', calls: 1, refused: 0 },
      ]),
    );
    expect(report.thisMinute).toBe(5);

    // The next minute: a new bucket, and a second flush adds to the day's counts.
    t.clock.now += 60_000;
    expect((await t.get('/api/v1/codes/seniorities')).statusCode).toBe(200);
    await t.app.usage.flush();
    const again = await usageReport(t.db.database.db, appId, t.clock.now);
    expect(again.minutes.at(-1)!.byClass['2xx']).toBe(1);
    expect(again.minutes.at(-2)!.byClass['2xx']).toBe(4);
    expect(again.days.at(-1)!.byClass).toMatchObject({ '2xx': 5, '4xx': 1, '429': 2 });
    expect(again.today).toBe(6);
  });
});
