import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

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
      const viaUrl = openDatabase({ kind: 'postgres', url: `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${first}`)}`, poolSize: 1 });
      try {
        expect(await migrateToLatest(viaUrl)).toEqual([]);
      } finally {
        await viaUrl.close();
      }
      const tables = await admin.query('SELECT table_schema FROM information_schema.tables WHERE table_name = $1 AND table_schema = ANY($2)', ['posts', [first, second]]);
      expect(tables.rows.map((r) => r.table_schema).sort()).toEqual([first, second].sort());
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${first} CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS ${second} CASCADE`);
      await admin.end();
    }
  });
});
