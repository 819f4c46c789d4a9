import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { freePort } from '../support/free-port.js';
import { jsonPart, multipart } from './helpers/multipart.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { serverProcess } from './helpers/server-process.js';
import { testConfig, type TestContext } from './helpers/test-app.js';
import { accessToken, bearer } from './helpers/tokens.js';

const POSTGRES = process.env.TEST_DATABASE_URL;
const SECRET = 'blocked-reads-signing-secret-0123456789abcdef';

/**
 * Issue 85 row 1, as an operator meets it: two compiled instances on one PostgreSQL; a post is written on A while
 * B cannot read `posts` for longer than its statement time limit (a lock, as a long migration or VACUUM FULL holds).
 * B's search fails meanwhile; once the lock is gone B finds the post, and still finds it after a restart from the
 * copy of its index it saved on the way down. No timing is asserted.
 */
describe.runIf(POSTGRES)('a write made while another instance cannot read posts', () => {
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'svc-blocked-')));
  let storage: ScratchStorage;
  let demo: DemoManifest;
  let token = '';
  const ports = [0, 0];
  const base = (i: number) => `http://127.0.0.1:${ports[i]}`;
  const [a, b] = [0, 1].map((i) =>
    serverProcess(
      () => base(i),
      () => ({
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        DATA_DIR: dirs[i]!,
        DATABASE_URL: storage.url,
        LOG_LEVEL: 'silent',
        PUBLIC_BASE_URL: base(0),
        SIGNING_KEY_SECRET: SECRET,
        INSTANCE_NAME: `blocked-${i}`,
        REDIS_URL: '',
        DATABASE_QUERY_TIMEOUT_MS: '2000',
      }),
    ),
  ) as [ReturnType<typeof serverProcess>, ReturnType<typeof serverProcess>];

  beforeAll(async () => {
    storage = await scratchStorage('postgres', dirs[0]!, 'blocked');
    for (const i of [0, 1]) ports[i] = await freePort();
    const database = storage.open();
    await migrateToLatest(database);
    demo = await generateDemoData(database, { now: Date.now(), posts: 30, jobs: 10, events: 3 });
    const app = await buildApp({
      config: testConfig({ PUBLIC_BASE_URL: base(0), SIGNING_KEY_SECRET: SECRET, DATA_DIR: dirs[0]! }),
      database,
      logger: false,
    });
    token = await accessToken({ app, demo } as TestContext, 'post:write');
    await app.close();
    await database.close();
    await a.start();
    await b.start();
  }, 120_000);
  afterAll(async () => {
    await a.kill();
    await b.kill();
    await storage?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const search = async (i: number) => {
    const res = await fetch(`${base(i)}/api/v1/posts?keyword=pangolin&sort=RECENT`, {
      headers: { 'x-svc-api-key': demo.apiKey },
    });
    return { status: res.status, body: (await res.json()) as { totalItems?: number; code?: string } };
  };

  it('B finds the post once it can read again, and after a restart from its saved copy', async () => {
    expect((await search(1)).body.totalItems).toBe(0);
    const body = multipart([jsonPart({ text: 'written on A while B is blocked: pangolin' })]);
    const written = await fetch(`${base(0)}/api/v1/posts`, {
      method: 'POST',
      headers: { ...body.headers, ...bearer(token) },
      body: body.payload,
    });
    expect(written.status).toBe(201);
    const { postId } = (await written.json()) as { postId: number };

    const locker = new pg.Client({ connectionString: storage.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
      const blocked = await search(1);
      expect(blocked.status).toBe(503);
      expect(blocked.body.code).toBe('C9998');
      const ready = (await (await fetch(`${base(1)}/readyz`)).json()) as { status: string; searchIndexes?: string };
      expect(ready.status).toBe('degraded');
      expect(ready.searchIndexes).toMatch(/^posts: reading changed items failed \d+ times in a row, trying again$/);
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }

    const found = await search(1);
    expect(found.status).toBe(200);
    expect(found.body.totalItems).toBe(1);
    expect(((await (await fetch(`${base(1)}/readyz`)).json()) as { status: string }).status).toBe('ready');

    await b.stop();
    await b.start();
    const afterRestart = await search(1);
    expect(afterRestart.body.totalItems).toBe(1);
    const detail = await fetch(`${base(1)}/api/v1/posts/${postId}`, { headers: { 'x-svc-api-key': demo.apiKey } });
    expect(detail.status).toBe(200);
  }, 90_000);
});
