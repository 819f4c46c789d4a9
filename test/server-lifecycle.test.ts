import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { PostingIndex } from '../src/search/posting-index.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { testConfig } from './helpers/test-app.js';

describe('a real listening server', () => {
  let app: App | undefined;
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await app?.close();
    await db?.database.close();
    await db?.drop();
  });

  it('answers health checks and finishes in-flight requests when it shuts down', async () => {
    db = await createTestDatabase('sqlite');
    app = await buildApp({ config: testConfig(), database: db.database, logger: false });
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      app!.get('/test/slow', async () => {
        resolve();
        await new Promise<void>((r) => {
          release = r;
        });
        return { finished: true };
      });
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });

    expect(await (await fetch(`${address}/healthz`)).json()).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: expect.stringMatching(/^(?:[0-9a-f]{12}|unknown)$/),
    });
    // A probe every few seconds must not walk every bitmap of every index, as the metrics' byte figures do.
    const walks = vi.spyOn(PostingIndex.prototype, 'bytes');
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    expect(walks).not.toHaveBeenCalled();
    walks.mockRestore();

    const inFlight = fetch(`${address}/test/slow`);
    await started;
    const closing = app.close();
    setTimeout(() => release(), 100);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
    app = undefined;
  });

  it('keeps data across a restart of the database connection', async () => {
    db = await createTestDatabase('sqlite');
    await db.database.db.insertInto('apps').values({ name: 'durable', owner_user_id: null, created_at: 1 }).execute();
    await db.database.close();
    const reopened = db.reopen();
    const rows = await reopened.db.selectFrom('apps').select('name').execute();
    expect(rows).toEqual([{ name: 'durable' }]);
    db.database = reopened;
  });
});
