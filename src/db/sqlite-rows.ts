import type BetterSqlite3 from 'better-sqlite3';

/**
 * Runs a prepared SELECT and returns its rows as objects keyed by column name, as `statement.all()` does, but
 * built in JavaScript: better-sqlite3 builds each row object through V8's C++ API, a property at a time, which for
 * rows of twenty columns or more (a post or a job with its author and translation) is a fifth of the statement's CPU
 * (`npm run bench:read-floor`; bench/results/performance-history.md).
 * The statement runs in raw mode (an array of values per row) and a constructor made once from its column names
 * gives every row the same shape, as an object literal would. The names are those of our own SQL, never input,
 * quoted as string keys. A name that appears twice keeps its last value, as better-sqlite3 does.
 */
export function rowsAsObjects<Row>(statement: BetterSqlite3.Statement): (parameters: unknown) => Row[] {
  const names = statement.columns().map(({ name }) => name);
  // In an object literal that key would set the prototype, not a property.
  if (names.includes('__proto__')) throw new Error('A column named __proto__ cannot be a row property');
  const construct = new Function(
    'values',
    `return { ${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')} };`,
  ) as (values: unknown[]) => Row;
  statement.raw(true);
  return (parameters) => {
    const rows = statement.all(parameters) as unknown[][];
    const objects = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = construct(rows[i]!);
    return objects;
  };
}
