/**
 * The pieces of SQL text that differ between the engines, named, for the statements written by hand (the hot reads,
 * db/prepared-reads.ts): a read is written once, as a function of these, and each engine's text comes from its own.
 * Kysely builds everything else, and compiles it per engine itself.
 */

/** The engine's JSON functions, by what they do. */
interface JsonFunctions {
  /** A JSON array of one value per row (an aggregate). */
  agg: string;
  /** A JSON array of its arguments. */
  array: string;
  /** A JSON object of its arguments, names and values in turn. */
  object: string;
}

/** Where rows wanted by id, each in a language, come from (parameters 1, the ids, and 2, the languages: ByLanguageRead). */
export interface WantedRows {
  /** Before SELECT (a common table expression), or ''. */
  with: string;
  /** After FROM: the table under its alias, with what gives the wanted ids. */
  from: string;
  /** The language a row is wanted in, as an expression. */
  language: string;
  /** After the joins: the condition that keeps the wanted rows (with its WHERE), or ''. */
  where: string;
}

export interface ReadSql {
  readonly json: JsonFunctions;
  /** Parameter `n` (from 1). */
  param(n: number): string;
  /** `value` of each row as a JSON array, in `order`. */
  jsonAgg(value: string, order?: string): string;
  /** The values as a JSON array. */
  jsonArray(...values: string[]): string;
  /** A JSON object: each `[name, value]` (the name a plain identifier). */
  jsonObject(entries: ReadonlyArray<readonly [string, string]>): string;
  /** `column` is one of the values of array parameter `n` (a JS array of ids), whose elements are of `type`. */
  inArray(column: string, n: number, type: 'int8' | 'text'): string;
  /** The rows of `table` (as `alias`) by id, each in its language. */
  wanted(table: string, alias: string): WantedRows;
  /** The same, and the rows they point at through `via` (a repost's source), each in the language of the row pointing. */
  wantedAndLinked(table: string, alias: string, via: string): WantedRows;
}

/** A read written once: its text from the engine's pieces. */
export type ReadText = (sql: ReadSql) => string;

function readSql(
  json: JsonFunctions,
  pieces: Pick<ReadSql, 'param' | 'inArray' | 'wanted' | 'wantedAndLinked'>,
): ReadSql {
  return {
    json,
    ...pieces,
    jsonAgg: (value, order) => `${json.agg}(${value}${order ? ` ORDER BY ${order}` : ''})`,
    jsonArray: (...values) => `${json.array}(${values.join(', ')})`,
    jsonObject: (entries) => `${json.object}(${entries.map(([name, value]) => `'${name}', ${value}`).join(', ')})`,
  };
}

/**
 * SQLite: parameters `?N`; an array parameter is JSON text read with `json_each`; the rows wanted by language are
 * read one language at a time (`?2` is that language).
 */
export const SQLITE_SQL: ReadSql = readSql(
  { agg: 'json_group_array', array: 'json_array', object: 'json_object' },
  {
    param: (n) => `?${n}`,
    inArray: (column, n) => `${column} IN (SELECT value FROM json_each(?${n}))`,
    wanted: (table, alias) => ({
      with: '',
      from: `${table} ${alias}`,
      language: '?2',
      where: ` WHERE ${alias}.id IN (SELECT value FROM json_each(?1))`,
    }),
    wantedAndLinked: (table, alias, via) => ({
      with: '',
      from: `${table} ${alias}`,
      language: '?2',
      where: ` WHERE ${alias}.id IN (SELECT value FROM json_each(?1) UNION SELECT r.${via} FROM ${table} r WHERE r.id IN (SELECT value FROM json_each(?1)))`,
    }),
  },
);

/**
 * PostgreSQL: parameters `$N`; an array parameter is an array; the rows wanted by language come as pairs of ids and
 * languages (`unnest` of two arrays), every language in one statement.
 */
export const POSTGRES_SQL: ReadSql = readSql(
  { agg: 'json_agg', array: 'json_build_array', object: 'json_build_object' },
  {
    param: (n) => `$${n}`,
    inArray: (column, n, type) => `${column} = ANY($${n}::${type}[])`,
    wanted: (table, alias) => ({
      with: '',
      from: `unnest($1::int8[], $2::text[]) AS w(id, language) JOIN ${table} ${alias} ON ${alias}.id = w.id`,
      language: 'w.language',
      where: '',
    }),
    // The pairs and the linked rows' as the rows to start from: with an OR of the two in WHERE, PostgreSQL reads every row.
    wantedAndLinked: (table, alias, via) => ({
      with: 'WITH w AS (SELECT * FROM unnest($1::int8[], $2::text[]) AS w(id, language))\n',
      from: `(SELECT id, language FROM w UNION SELECT r.${via}, w.language FROM w JOIN ${table} r ON r.id = w.id) wanted JOIN ${table} ${alias} ON ${alias}.id = wanted.id`,
      language: 'wanted.language',
      where: '',
    }),
  },
);
