import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { ClientGoneError, readScope, ReadTimeoutError } from '../src/db/read-scope.js';
import { ENGINES, createTestDatabase, type Engine, type TestDatabase } from './helpers/test-database.js';

/** A read that keeps the engine busy for about `ms` milliseconds. */
const slowRead = (engine: Engine, ms: number) =>
  engine === 'postgres'
    ? sql<{ n: number }>`SELECT 1 AS n FROM pg_sleep(${ms / 1000})`
    : // A recursive count: SQLite has no sleep, and this one is pure work on the worker's thread: about `ms` on a
      // fast machine (7,500 rows a millisecond), up to five times that on a slow one (1,500). Reads meant to finish
      // stay well under the 1 s limit on either; the one meant to be stopped is far over it on either.
      sql<{
        n: number;
      }>`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ms * 8_000}) SELECT count(*) AS n FROM c`;

/** Isolation of long reads (issue 11): bounded time, nothing run for clients that left, searches apart from the rest. */
describe.each(ENGINES)('search reads on %s', (engine) => {
  let test: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    test = await createTestDatabase(engine);
    await test.database.close();
    // One search worker (SQLite) or one search connection (PostgreSQL), and a short time limit.
    const reopened =
      engine === 'sqlite'
        ? openDatabase({ kind: 'sqlite', url: test.file!, readWorkers: 1, searchTimeoutMs: 1_000 })
        : openDatabase({
            kind: 'postgres',
            url: test.url!,
            searchPath: await schemaOf(test),
            poolSize: 2,
            searchPoolSize: 1,
            searchTimeoutMs: 1_000,
          });
    database = reopened;
  });
  afterAll(async () => {
    await database?.close();
    await test?.drop();
  });

  const run = <R>(query: RawBuilder<R>) => database.longReads({ compile: () => query.compile(database.db) });

  it.runIf(engine === 'sqlite')(
    'gives the main connection and each read worker a 4 MB page cache, not the 16 MB better-sqlite3 builds in',
    async () => {
      const main = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(database.db);
      expect(main.rows).toEqual([{ cache_size: -4000 }]);
      expect(await run(sql<{ cache_size: number }>`PRAGMA cache_size`)).toEqual([{ cache_size: -4000 }]);
    },
  );

  it.runIf(engine === 'sqlite')(
    'reads the file through a memory map on the main connection and each read worker',
    async () => {
      const main = await sql<{ mmap_size: number }>`PRAGMA mmap_size`.execute(database.db);
      expect(main.rows).toEqual([{ mmap_size: 0x7fff0000 }]);
      expect(await run(sql<{ mmap_size: number }>`PRAGMA mmap_size`)).toEqual([{ mmap_size: 0x7fff0000 }]);
    },
  );

  it.runIf(engine === 'sqlite')('ends a read worker left idle, and starts one again at the next read', async () => {
    const idling = openDatabase({ kind: 'sqlite', url: test.file!, readWorkers: 2, readWorkerIdleMs: 200 });
    try {
      const read = () => idling.longReads({ compile: () => sql<{ n: number }>`SELECT 7 AS n`.compile(idling.db) });
      expect(await read()).toEqual([{ n: 7 }]);
      expect(idling.pools()[0]!.size).toBe(2);
      // Both end: the one that read, and the one started beside it that never got a read.
      await expect.poll(() => idling.pools()[0]!.size, { timeout: 5_000 }).toBe(0);
      expect(await read()).toEqual([{ n: 7 }]);
      expect(idling.pools()[0]!.size).toBe(2);
    } finally {
      await idling.close();
    }
  });

  it('stops a read that runs past the time limit, and keeps serving the next', async () => {
    const started = Date.now();
    const stopped = await run(slowRead(engine, 5_000)).catch((err: unknown) => err);
    expect(Date.now() - started).toBeLessThan(3_500);
    if (engine === 'sqlite') expect(stopped).toBeInstanceOf(ReadTimeoutError);
    else expect((stopped as { code?: string }).code).toBe('57014');
    expect(await run(sql<{ n: number }>`SELECT 2 AS n`)).toEqual([{ n: 2 }]);
  });

  it('runs nothing for a client that left while its read waited', async () => {
    const busy = run(slowRead(engine, 100));
    const controller = new AbortController();
    const waiting = readScope.run({ signal: controller.signal }, () => run(sql<{ n: number }>`SELECT 3 AS n`));
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(ClientGoneError);
    expect((await busy).length).toBe(1);
  });

  it('runs nothing for a client that left, even once the service has closed its database', async () => {
    const closing =
      engine === 'sqlite'
        ? test.reopen()
        : openDatabase({ kind: 'postgres', url: test.url!, searchPath: await schemaOf(test) });
    await closing.longReads({ compile: () => sql<{ n: number }>`SELECT 4 AS n`.compile(closing.db) });
    await closing.close();
    const controller = new AbortController();
    controller.abort();
    const late = readScope.run({ signal: controller.signal }, () =>
      closing.longReads({ compile: () => sql<{ n: number }>`SELECT 5 AS n`.compile(closing.db) }),
    );
    // Answered as a client that left (logged at debug), not as a server fault at every shutdown.
    await expect(late).rejects.toBeInstanceOf(ClientGoneError);
  });

  it('answers the other reads while every search connection is busy', async () => {
    // Searches that hold every search connection for a while; the other read must be answered before either
    // ends (not by a fixed time, which a loaded machine can miss without anything being wrong).
    let searchesEnded = 0;
    const searches = [1, 2].map(() =>
      run(slowRead(engine, engine === 'postgres' ? 500 : 100)).finally(() => {
        searchesEnded++;
      }),
    );
    await database.db.selectFrom('posts').select('id').limit(1).execute();
    expect(searchesEnded).toBe(0);
    await Promise.all(searches);
  });
});

async function schemaOf(test: TestDatabase): Promise<string> {
  // The schema the test database was created in (its connections name it in their search_path).
  const reopened = test.reopen();
  try {
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(reopened.db);
    return rows[0]!.schema;
  } finally {
    await reopened.close();
  }
}
