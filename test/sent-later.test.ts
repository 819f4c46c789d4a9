import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendLater } from '../src/db/sent-later.js';
import { createTestDatabase, ENGINES, type TestDatabase } from './helpers/test-database.js';

/**
 * Statements a transaction does not wait for (src/db/sent-later.ts), on a real database: on PostgreSQL they are held
 * and sent with the transaction's next statement that is waited for; on SQLite they run at once. Either way the
 * transaction means the same: all of it, or none of it.
 */
describe.each(ENGINES)('statements sent later on %s', (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await test?.database.close();
    await test?.drop();
  });

  const changesOf = async (docId: number) =>
    (await test.database.db.selectFrom('search_changes').select('doc_id').where('doc_id', '=', docId).execute()).length;

  it('commits what was held with the transaction, and answers its rows once the commit is answered', async () => {
    const { db } = test.database;
    const answer = await db.transaction().execute(async (trx) => {
      await trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_001, created_at: 1 }).execute();
      const later = await sendLater(
        trx,
        trx
          .insertInto('search_changes')
          .values({ kind: 'post', doc_id: 9_002, created_at: 2 })
          .returning(['doc_id', 'created_at']),
      );
      await sendLater(trx, trx.insertInto('search_changes').values({ kind: 'job', doc_id: 9_003, created_at: 3 }));
      return later;
    });
    expect(await answer.answer).toEqual([{ doc_id: 9_002, created_at: 2 }]);
    expect([await changesOf(9_001), await changesOf(9_002), await changesOf(9_003)]).toEqual([1, 1, 1]);
  });

  it("fails the transaction with a held statement's own error, and keeps none of its writes", async () => {
    const { db } = test.database;
    const failed = db.transaction().execute(async (trx) => {
      await trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_101, created_at: 1 }).execute();
      await sendLater(trx, trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_102, created_at: 1 }));
      // The feed's counter exists already: a duplicate key, found when this is sent (at the commit on PostgreSQL).
      await sendLater(trx, trx.insertInto('change_feed_state').values({ name: 'last_position', value: 0 }));
      await sendLater(trx, trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_103, created_at: 1 }));
    });
    await expect(failed).rejects.toMatchObject(
      engine === 'postgres' ? { code: '23505' } : { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    );
    expect([await changesOf(9_101), await changesOf(9_102), await changesOf(9_103)]).toEqual([0, 0, 0]);
    // The connection is clean for the next transaction (no statement of the failed one left behind).
    await db.transaction().execute(async (trx) => {
      await sendLater(trx, trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_104, created_at: 1 }));
    });
    expect(await changesOf(9_104)).toBe(1);
  });

  it('runs a statement at once outside a transaction', async () => {
    const { db } = test.database;
    const later = await sendLater(
      db,
      db.insertInto('search_changes').values({ kind: 'post', doc_id: 9_201, created_at: 1 }).returning('doc_id'),
    );
    expect(await changesOf(9_201)).toBe(1);
    expect(await later.answer).toEqual([{ doc_id: 9_201 }]);
  });

  it.runIf(engine === 'postgres')(
    'sends nothing for a transaction that rolls back before it waited for any statement',
    async () => {
      const { db, statements } = test.database;
      const before = statements.count;
      const rolledBack = db.transaction().execute(async (trx) => {
        await sendLater(trx, trx.insertInto('search_changes').values({ kind: 'post', doc_id: 9_301, created_at: 1 }));
        throw new Error('changed its mind');
      });
      await expect(rolledBack).rejects.toThrow('changed its mind');
      expect(statements.count - before).toBe(0);
      expect(await changesOf(9_301)).toBe(0);
    },
  );
});
