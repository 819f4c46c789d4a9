import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

/** Resolves to 'timeout' when `promise` has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);

describe('SQLite search reads on worker threads', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/posts?${query}`, headers: { 'x-svc-api-key': t.demo.apiKey } });

  it('answers a search while the main connection is inside a write transaction, then sees the commit', async () => {
    const { db } = t.db.database;
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inTransaction!: () => void;
    const started = new Promise<void>((resolve) => {
      inTransaction = resolve;
    });
    const writing = db.transaction().execute(async (trx) => {
      await trx
        .updateTable('posts')
        .set({ content: 'quokka sighting' })
        .where('id', '=', t.demo.posts.member)
        .execute();
      inTransaction();
      await committed;
    });
    await started;
    // The main connection is held by the open transaction: a search on it would wait for the commit.
    const during = await within(
      t.db.database.longReads(db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n'))),
      5_000,
    );
    expect(during).toEqual([{ n: t.demo.posts.total }]);
    commit();
    await writing;
    const after = await t.db.database.longReads(
      db.selectFrom('posts').select('content').where('id', '=', t.demo.posts.member),
    );
    expect(after).toEqual([{ content: 'quokka sighting' }]);
  });

  it('serves searches through the workers and reports a failing read as an error, then keeps working', async () => {
    const res = await search('sort=RECENT');
    expect(res.statusCode).toBe(200);
    expect(res.json().totalItems).toBe(t.demo.posts.total);
    const { db } = t.db.database;
    await expect(t.db.database.longReads(db.selectFrom('no_such_table' as 'posts').selectAll())).rejects.toThrow(
      /no such table/,
    );
    expect((await search('sort=RECENT&page=2')).json().page).toBe(2);
  });
});
