import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsAsObjects } from '../src/db/sqlite-rows.js';

describe('rows built from raw arrays (the hot reads on SQLite)', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB);
    INSERT INTO t VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, NULL, NULL), (3, '한국어 "quoted" \\ text', -2, x'');`);
  afterAll(() => db.close());

  it('equal, row by row and key by key, what better-sqlite3 builds itself', () => {
    const sql = `SELECT id, name AS "odd ""name"" \\ é", score, data, id * 2 AS twice, json_array(id, name) AS json, name AS id
      FROM t WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY t.id`;
    const expected = db.prepare(sql).all({ 1: '[1,2,3]' });
    const rows = rowsAsObjects(db.prepare(sql))({ 1: '[1,2,3]' });
    expect(rows).toEqual(expected);
    // A name taken twice keeps its last value, as better-sqlite3 does; the keys come in the same order.
    expect(rows.map((row) => Object.keys(row as object))).toEqual(expected.map((row) => Object.keys(row as object)));
    expect((rows[0] as { id: unknown }).id).toBe('a');
  });

  it('gives no rows for no match, and refuses a column that would set the prototype', () => {
    expect(rowsAsObjects(db.prepare('SELECT id FROM t WHERE id = ?'))([99])).toEqual([]);
    expect(() => rowsAsObjects(db.prepare('SELECT id AS __proto__ FROM t'))).toThrow(/__proto__/);
  });
});
