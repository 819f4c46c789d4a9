import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, untilOthersSettle } from '../src/db/migrate.js';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('migrations on PostgreSQL', () => {
  it('migrate a schema while another schema of the database already holds migrated tables', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const [first, second] = [`m_${randomBytes(4).toString('hex')}`, `m_${randomBytes(4).toString('hex')}`];
    try {
      await admin.query(`CREATE SCHEMA ${first}`);
      await admin.query(`CREATE SCHEMA ${second}`);
      for (const schema of [first, second]) {
        const database = openDatabase({ kind: 'postgres', url: url!, searchPath: schema, poolSize: 1 });
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
        url: `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${first}`)}`,
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
      await admin.query(`DROP SCHEMA IF EXISTS ${first} CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS ${second} CASCADE`);
      await admin.end();
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
