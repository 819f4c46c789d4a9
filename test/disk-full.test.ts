import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { png } from './helpers/images.js';
import { imagePart, jsonPart, multipart, type Part } from './helpers/multipart.js';
import { TEST_NOW, testConfig, type TestContext } from './helpers/test-app.js';
import { accessToken, bearer } from './helpers/tokens.js';

/** A tmpfs of `size` mounted at a new directory, or null where this process may not mount (not root). */
function smallDisk(size: string): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

/** Writes zeros into `file` until the disk refuses (ENOSPC). */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

const disk = smallDisk('48m');
if (!disk) console.warn('disk-full test skipped: this process cannot mount a tmpfs (CI runs it as root)');

/**
 * Issue 22 row 6: the disk under the database and the media fills up (SQLite, DATA_DIR on a 48 MB tmpfs).
 * Reads keep being served (their rate-limit counters are counted in the process meanwhile), writes are
 * refused with a clear error and change nothing, /readyz says so, and writes are taken again once there is room.
 */
describe.runIf(disk)('a full disk under SQLite and the media store', () => {
  let database: Database;
  let app: App;
  let demo: DemoManifest;
  let token: string;
  const filler = path.join(disk ?? '', 'filler');
  /** The service's clock: the counters' retry after a refusal is moved past, not slept through. */
  let now = TEST_NOW;

  beforeAll(async () => {
    const config = testConfig({ DATA_DIR: disk! });
    database = openDatabase({ kind: 'sqlite', url: path.join(disk!, 'service.sqlite') });
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: TEST_NOW });
    app = await buildApp({ config, database, clock: () => now, logger: false });
    token = await accessToken({ app, demo } as unknown as TestContext, 'post:write');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (disk) {
      execFileSync('umount', [disk], { stdio: 'ignore' });
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });

  const write = (parts: Part[]) => {
    const body = multipart(parts);
    return app.inject({
      method: 'POST',
      url: '/api/v1/posts',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
  };
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-svc-api-key': demo.apiKey } });
  const postCount = async () =>
    Number(
      (
        await database.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('serves reads, refuses writes with 503 C9998 and uploads with 502 P0013, says so on /readyz, and writes again once there is room', async () => {
    const [post] = await database.db.selectFrom('posts').select('id').orderBy('id').limit(1).execute();
    const before = await postCount();
    // Nothing left in the write-ahead log to reuse: every write now needs new space.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
    fill(filler);

    for (const url of [`/api/v1/posts/${post!.id}`, '/api/v1/posts?keyword=개발', '/api/v1/jobs', '/api/v1/events']) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const text = await write([jsonPart({ text: 'written on a full disk' })]);
    expect(text.statusCode, text.body).toBe(503);
    expect(text.json()).toMatchObject({ code: 'C9998' });
    expect(text.json().message).toContain('disk is full');
    expect(text.headers['retry-after']).toBe('5');
    const upload = await write([jsonPart({ text: 'an image on a full disk' }), imagePart(png(64, 64))]);
    // The image is stored before any row is written: the media store's refusal is the answer.
    expect(upload.statusCode, upload.body).toBe(502);
    expect(upload.json()).toMatchObject({ code: 'P0013' });

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('degraded');
    expect(ready.json().rateLimits).toContain('disk is full');

    fs.rmSync(filler);
    expect(await postCount()).toBe(before);
    const again = await write([jsonPart({ text: 'written once there is room' })]);
    expect(again.statusCode, again.body).toBe(201);
    expect(await postCount()).toBe(before + 1);
    // The counters ask the database again 2 s after its last refusal; the next reservation it takes ends the fallback.
    now += 2_100;
    expect((await get(`/api/v1/posts/${post!.id}`)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});

const copies = smallDisk('8m');

/**
 * Issue 85 row 6: `DATA_DIR`, where the saved search index copies go, is full (the database elsewhere). An instance
 * with no copy builds its indexes, starts and serves; the copies it cannot write are logged and leave no `.tmp`
 * file; it stops without an error, and starts again the same way.
 */
describe.runIf(copies)('a full disk under the saved search index copies', () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-full-db-'));
  let database: Database;
  afterAll(async () => {
    await database?.close();
    fs.rmSync(elsewhere, { recursive: true, force: true });
    if (copies) {
      execFileSync('umount', [copies], { stdio: 'ignore' });
      fs.rmSync(copies, { recursive: true, force: true });
    }
  });

  it('starts, serves and stops without a copy, saying so, and leaves no partial file', async () => {
    database = openDatabase({ kind: 'sqlite', url: path.join(elsewhere, 'service.sqlite') });
    await migrateToLatest(database);
    const demo = await generateDemoData(database, { now: TEST_NOW });
    fs.mkdirSync(path.join(copies!, 'search-index'), { recursive: true });
    fill(path.join(copies!, 'filler'));
    for (let round = 0; round < 2; round++) {
      let logged = '';
      const app = await buildApp({
        config: testConfig({ DATA_DIR: copies! }),
        database,
        clock: () => TEST_NOW,
        logger: { level: 'warn', stream: { write: (line: string) => (logged += line) } },
      });
      expect(app.postIndex.stats().fromCopy).toBe(false);
      const found = await app.inject({
        method: 'GET',
        url: `/api/v1/posts?keyword=${encodeURIComponent('개발')}`,
        headers: { 'x-svc-api-key': demo.apiKey },
      });
      expect(found.statusCode, found.body).toBe(200);
      await app.close();
      expect(logged).toContain('the search index copy could not be saved; serving without it');
      expect(logged).toContain('ENOSPC');
      expect(fs.readdirSync(path.join(copies!, 'search-index'))).toEqual([]);
    }
  }, 60_000);
});
