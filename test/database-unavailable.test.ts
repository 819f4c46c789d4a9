import { Writable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { loggerOptions } from '../src/shared/log-options.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { pausableProxy } from './helpers/pausable-proxy.js';
import { createTestApp, TEST_NOW, testConfig, type TestContext } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { accessToken, bearer } from './helpers/tokens.js';

const POSTGRES = process.env.TEST_DATABASE_URL;

/**
 * Issue 22 row 10: a database that stops answering. Every request waiting on it is answered 503 C9998 with
 * Retry-After within the configured bounds (none is left to the socket's idle timeout), each is logged,
 * /readyz says so, a write refused this way changed nothing, and the service serves again once the database
 * answers. PostgreSQL is reached through a TCP proxy that stops passing bytes, as a paused server does.
 */
describe.runIf(POSTGRES)('a PostgreSQL server that stops answering', () => {
  let db: TestDatabase;
  let demo: DemoManifest;
  let proxy: Awaited<ReturnType<typeof pausableProxy>>;
  let proxied: Database;
  let proxiedUrl = '';
  let app: App;
  let logged = '';
  const clock = { now: TEST_NOW };

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    demo = await generateDemoData(db.database, { now: TEST_NOW });
    const target = new URL(POSTGRES!);
    proxy = await pausableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const through = new URL(db.url!);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    proxiedUrl = through.toString();
    // Short bounds, still far above what a statement on this small data set takes under a loaded CI machine.
    proxied = db.reopen({ url: through.toString(), connectTimeoutMs: 1_500, queryTimeoutMs: 2_000 });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    app = await buildApp({
      config: testConfig(),
      database: proxied,
      clock: () => clock.now,
      logger: { ...loggerOptions('warn'), stream },
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.close();
    await proxy?.close();
    await db?.database.close();
    await db?.drop();
  });

  const postCount = async () =>
    Number(
      (
        await db.database.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const read = (id: number) =>
    app.inject({ method: 'GET', url: `/api/v1/posts/${id}`, headers: { 'x-svc-api-key': demo.apiKey } });

  it('answers 503 C9998 with Retry-After, reads and writes alike, logs each, and serves again when the database answers', async () => {
    const token = await accessToken({ app, demo } as unknown as TestContext, 'post:write');
    const [first, second] = await db.database.db.selectFrom('posts').select('id').orderBy('id').limit(2).execute();
    expect((await read(first!.id)).statusCode).toBe(200);
    const before = await postCount();

    proxy.pause();
    const detail = await read(second!.id);
    expect(detail.statusCode, detail.body).toBe(503);
    expect(detail.json()).toMatchObject({ code: 'C9998' });
    expect(detail.headers['retry-after']).toBe('5');
    expect(detail.json().message).toMatch(/database cannot take requests right now/);

    const body = multipart([jsonPart({ text: 'written while the database is away' })]);
    const write = await app.inject({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token), 'idempotency-key': 'db-away-1' },
      payload: body.payload,
    });
    expect(write.statusCode, write.body).toBe(503);
    expect(write.json()).toMatchObject({ code: 'C9998' });

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'database unavailable' });
    expect(logged).toContain('database unavailable: answered 503');

    proxy.resume();
    // The connections that timed out were closed, not reused: the next requests get fresh ones.
    expect((await read(second!.id)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    // The refused write changed nothing; sent again with its key, it is made once.
    expect(await postCount()).toBe(before);
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token), 'idempotency-key': 'db-away-1' },
      payload: body.payload,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(await postCount()).toBe(before + 1);
  }, 60_000);

  it('answers /readyz 503 within its own deadline, however long a statement may wait', async () => {
    // A statement limit of a minute: the readiness check must not wait for it.
    const patient = db.reopen({ url: proxiedUrl, connectTimeoutMs: 60_000, queryTimeoutMs: 60_000 });
    const second = await buildApp({ config: testConfig(), database: patient, clock: () => clock.now, logger: false });
    try {
      expect((await second.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      proxy.pause();
      const ready = await second.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'database unavailable' });
    } finally {
      proxy.resume();
      await second.close();
      await patient.close();
    }
  }, 20_000);
});

/** SQLite: another process holding the write lock past busy_timeout (5 s) is the same case for a write. */
describe('a SQLite database locked by another writer', () => {
  let t: TestContext;
  let other: BetterSqlite3.Database;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    other = new BetterSqlite3(t.db.file!);
  });
  afterAll(async () => {
    other?.close();
    await t?.close();
  });

  it('answers a write 503 C9998 with Retry-After, and takes the write once the lock is gone', async () => {
    const token = await accessToken(t, 'post:write');
    const body = multipart([jsonPart({ text: 'written while another process holds the lock' })]);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/posts',
        headers: { ...body.headers, ...bearer(token) },
        payload: body.payload,
      });
    other.exec('BEGIN IMMEDIATE');
    try {
      const write = await send();
      expect(write.statusCode, write.body).toBe(503);
      expect(write.json()).toMatchObject({ code: 'C9998' });
      expect(write.headers['retry-after']).toBe('5');
    } finally {
      other.exec('ROLLBACK');
    }
    expect((await send()).statusCode).toBe(201);
  }, 20_000);
});
