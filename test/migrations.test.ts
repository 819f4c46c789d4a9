import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, untilOthersSettle } from '../src/db/migrate.js';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { AppKeyService } from '../src/modules/accounts/app-key-service.js';
import { scratchStorage } from './helpers/scratch-storage.js';
import { testConfig } from './helpers/test-app.js';
import { createTestDatabase, ENGINES } from './helpers/test-database.js';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('migrations on PostgreSQL', () => {
  it('migrate a schema while another schema of the database already holds migrated tables', async () => {
    // A database of its own: migrations take a lock of the whole database, which other files' must not wait on.
    const storage = await scratchStorage('postgres', os.tmpdir(), 'migrations');
    const admin = new pg.Client({ connectionString: storage.url });
    await admin.connect();
    const [first, second] = [`m_${randomBytes(4).toString('hex')}`, `m_${randomBytes(4).toString('hex')}`];
    try {
      await admin.query(`CREATE SCHEMA ${first}`);
      await admin.query(`CREATE SCHEMA ${second}`);
      for (const schema of [first, second]) {
        const database = openDatabase({ kind: 'postgres', url: storage.url, searchPath: schema, poolSize: 1 });
        try {
          expect(await migrateToLatest(database)).toContain('2026-11-21-001-initial-schema');
          expect(await migrateToLatest(database)).toEqual([]);
        } finally {
          await database.close();
        }
      }
      // A schema chosen through the connection URL (options=-c search_path=…) is found too.
      const viaUrl = openDatabase({
        kind: 'postgres',
        url: `${storage.url}${storage.url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${first}`)}`,
        poolSize: 1,
      });
      try {
        expect(await migrateToLatest(viaUrl)).toEqual([]);
      } finally {
        await viaUrl.close();
      }
      const tables = await admin.query(
        'SELECT table_schema FROM information_schema.tables WHERE table_name = $1 AND table_schema = ANY($2)',
        ['posts', [first, second]],
      );
      expect(tables.rows.map((r) => r.table_schema).sort()).toEqual([first, second].sort());
    } finally {
      await admin.end();
      await storage.drop();
    }
  });
});

describe('a migration run beside another schema being dropped', () => {
  const failed = (message: string) => ({ error: new Error(message), results: undefined });
  const done = { error: undefined, results: [] };

  it("looks again when only another schema (or its table) vanished under Kysely's look at every table", async () => {
    for (const message of ['schema "t_123_abcd" does not exist', 'relation "t_123_abcd.posts" does not exist']) {
      let calls = 0;
      const result = await untilOthersSettle('ours', async () => (++calls === 1 ? failed(message) : done));
      expect(result.error).toBeUndefined();
      expect(calls).toBe(2);
    }
  });

  it('does not retry its own schema missing, a migration that failed, or past five attempts', async () => {
    let calls = 0;
    expect(
      (
        await untilOthersSettle('ours', async () => {
          calls++;
          return failed('schema "ours" does not exist');
        })
      ).error,
    ).toBeDefined();
    expect(calls).toBe(1);
    calls = 0;
    const ranOne = {
      error: new Error('relation "jobs" does not exist'),
      results: [{ migrationName: 'x', direction: 'Up' as const, status: 'Error' as const }],
    };
    expect(
      (
        await untilOthersSettle('ours', async () => {
          calls++;
          return ranOne;
        })
      ).error,
    ).toBeDefined();
    expect(calls).toBe(1);
    calls = 0;
    expect(
      (
        await untilOthersSettle('ours', async () => {
          calls++;
          return failed('schema "other" does not exist');
        })
      ).error,
    ).toBeDefined();
    expect(calls).toBe(5);
  });
});

/**
 * Issue 85 row 4: a newer release migrated the database further, then this one starts on it (a rollback, or one of
 * this release's instances restarting in the middle of a rolling upgrade). Every migration is expand-only, so it
 * serves, naming the migrations it does not know; one it does not know that sorts before its own is refused.
 */
describe.each(ENGINES)('a database a newer release migrated further, on %s', (engine) => {
  it('is served as it is, the newer migrations named; an unknown older one is refused', async () => {
    const test = await createTestDatabase(engine);
    const table = sql.table(test.schema ? `${test.schema}.kysely_migration` : 'kysely_migration');
    const applied = (name: string) =>
      sql`INSERT INTO ${table} (name, timestamp) VALUES (${name}, ${new Date().toISOString()})`.execute(
        test.database.db,
      );
    try {
      // What a newer release's migration does: a nullable column, and its row in the migrations table.
      await sql`ALTER TABLE posts ADD COLUMN newer_release_note text`.execute(test.database.db);
      await applied('2099-01-01-999-from-a-newer-release');
      const newer: string[][] = [];
      expect(await migrateToLatest(test.database, (names) => newer.push(names))).toEqual([]);
      expect(newer).toEqual([['2099-01-01-999-from-a-newer-release']]);
      const app = await buildApp({ config: testConfig(), database: test.database, logger: false });
      try {
        const { apiKey } = await new AppKeyService(new AccountsRepository(test.database.db, Date.now), 0).createApp(
          'after-rollback',
        );
        const res = await app.inject({ method: 'GET', url: '/api/v1/posts', headers: { 'x-svc-api-key': apiKey } });
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        await app.close();
      }
      await applied('2026-11-20-000-another-lineage');
      await expect(migrateToLatest(test.database)).rejects.toThrow(/corrupted migrations/);
    } finally {
      await test.database.close();
      await test.drop();
    }
  });
});
