import { afterEach, describe, expect, it } from 'vitest';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { AppKeyService } from '../src/modules/accounts/app-key-service.js';
import { DEMO_API_KEY } from '../src/demo/demo-generator.js';
import { hashSecret } from '../src/shared/keys.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

const WIDGET = 'https://widget.example';

/**
 * An app's web origins (set in the console): CORS admits them, and from a browser (an Origin header) an app's key
 * works only on its own app's origins or the service-wide CORS_ORIGINS. Servers send no Origin and are unaffected.
 */
describe.each(ENGINES)('app web origins on %s', (engine) => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const start = async () => {
    t = await createTestApp(engine, {
      config: { CORS_ORIGINS: 'https://everyone.example' },
      // The demo app allows the widget's origin, as its owner would set it in the console.
      prepare: async (database) => {
        const key = await database.db
          .selectFrom('app_keys')
          .select('app_id')
          .where('key_hash', '=', hashSecret(DEMO_API_KEY))
          .executeTakeFirstOrThrow();
        await database.db
          .updateTable('apps')
          .set({ web_origins: JSON.stringify([WIDGET]) })
          .where('id', '=', key.app_id)
          .execute();
      },
    });
    return t;
  };
  const get = (c: TestContext, key: string, origin?: string) =>
    c.app.inject({
      method: 'GET',
      url: '/api/v1/jobs?pageSize=1',
      headers: { 'x-svc-api-key': key, ...(origin ? { origin } : {}) },
    });

  it("admits the app's key from its own origins (with CORS headers) and from CORS_ORIGINS, and from servers", async () => {
    const c = await start();
    const fromWidget = await get(c, DEMO_API_KEY, WIDGET);
    expect(fromWidget.statusCode).toBe(200);
    expect(fromWidget.headers['access-control-allow-origin']).toBe(WIDGET);
    expect((await get(c, DEMO_API_KEY, 'https://everyone.example')).statusCode).toBe(200);
    expect((await get(c, DEMO_API_KEY)).statusCode).toBe(200);
    const preflight = await c.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/jobs',
      headers: {
        origin: WIDGET,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-svc-api-key',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(WIDGET);
  });

  it("refuses the key from any other browser origin with 403 C0004, and another app's key from this app's origin", async () => {
    const c = await start();
    const elsewhere = await get(c, DEMO_API_KEY, 'https://copied-key.example');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ code: 'C0004', details: 'Origin' });
    expect(elsewhere.json().message).toContain('https://copied-key.example');
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const unknownPreflight = await c.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/jobs',
      headers: { origin: 'https://copied-key.example', 'access-control-request-method': 'GET' },
    });
    expect(unknownPreflight.headers['access-control-allow-origin']).toBeUndefined();

    const { apiKey: other } = await new AppKeyService(
      new AccountsRepository(c.db.database.db, () => c.clock.now),
      0,
    ).createApp('Another app');
    expect((await get(c, other, WIDGET)).statusCode).toBe(403);
    expect((await get(c, other)).statusCode).toBe(200);
  });
});
