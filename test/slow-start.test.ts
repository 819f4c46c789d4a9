import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { withoutQueryTimeLimit } from '../src/db/database-unavailable.js';
import type { Database } from '../src/db/database.js';
import { ReadTimeoutError } from '../src/db/read-scope.js';
import { SqliteReadPool } from '../src/db/sqlite-read-pool.js';
import { generateDemoData, type DemoManifest } from '../src/demo/demo-generator.js';
import { TEST_NOW, testConfig } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

const POSTGRES = process.env.TEST_DATABASE_URL;
const SEARCH_LIMIT_MS = 300;

/**
 * Work at start is not held to a request's time limit (docs/search.md, "Building at start"): the search index build
 * reads every post and job with no statement time limit, so a start on a slow machine or a busy database is slower,
 * never fatal, while a client's search read keeps its limit (SEARCH_TIMEOUT_MS).
 */
describe.runIf(POSTGRES)('a start whose reads are slow on purpose, on PostgreSQL', () => {
  let db: TestDatabase;
  let demo: DemoManifest;
  let slow: Database;
  let app: App | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    demo = await generateDemoData(db.database, { now: TEST_NOW });
    slow = db.reopen({ searchTimeoutMs: SEARCH_LIMIT_MS });
  });
  afterAll(async () => {
    await app?.close();
    await slow?.close();
    await db?.database.close();
    await db?.drop();
  });

  /** Holds `table` locked against every read for `ms`, from another connection: every read of it waits that long. */
  async function locked(table: string, ms: number): Promise<() => Promise<void>> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`SET search_path = ${db.schema!}`);
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        void client
          .query('COMMIT')
          .then(() => client.end())
          .then(resolve, resolve);
      }, ms),
    );
    return () => released;
  }

  it('builds its indexes through reads that wait longer than SEARCH_TIMEOUT_MS', async () => {
    // Every read of the posts waits 4 × the search limit: the build's reads with it.
    const release = await locked('posts', SEARCH_LIMIT_MS * 4);
    app = await buildApp({
      config: testConfig({ SEARCH_TIMEOUT_MS: String(SEARCH_LIMIT_MS) }),
      database: slow,
      logger: false,
    });
    await release();
    const posts = await app.inject({
      method: 'GET',
      url: '/api/v1/posts?pageSize=1',
      headers: { 'x-svc-api-key': demo.apiKey },
    });
    expect(posts.statusCode, posts.body).toBe(200);
    const total = await db.database.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(posts.json().totalItems).toBe(Number(total.n));
  });
});

describe('SQLite read workers and the time limit', () => {
  let db: TestDatabase;
  let pool: SqliteReadPool;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    pool = new SqliteReadPool(db.file!, 1, 50);
  });
  afterAll(async () => {
    await pool?.close();
    await db?.database.close();
    await db?.drop();
  });

  // A read slow on purpose: counting to three million in a recursive query takes far longer than 50 ms.
  const slowRead = {
    sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c',
    parameters: [],
  };

  it("stops a request's read at the limit, and lets work no client waits for run to its end", async () => {
    await expect(pool.execute(slowRead)).rejects.toBeInstanceOf(ReadTimeoutError);
    expect(await withoutQueryTimeLimit(() => pool.execute<{ n: number }>(slowRead))).toEqual([{ n: 3_000_000 }]);
  });
});
