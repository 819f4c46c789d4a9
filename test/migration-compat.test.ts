/**
 * Every migration is safe while instances of the previous release still run (docs/deployment.md, "Releases and
 * migrations"): what each recorded release reads and writes (test/fixtures/release-queries/, made by
 * `npm run release:queries` when the release was cut) is run against a database at that release's last migration and
 * against one migrated to today's; a statement that runs on the first and fails on the second is a migration that
 * would break the previous release's instances during a rolling restart.
 *
 * Both databases are empty and their foreign keys are not enforced, so a statement fails only for the schema it meets
 * (a table or column gone or renamed, a new column it does not fill that must be filled, a type or check it no longer
 * passes); each runs in a transaction that is rolled back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { DB } from '../src/db/schema.js';
import { allMigrations } from '../src/db/migrations/index.js';
import { sqliteAdapter } from '../src/db/dialects/sqlite-adapter.js';
import { databaseAt } from './helpers/database-at.js';
import { ENGINES, type Engine } from './helpers/test-database.js';

const FOLDER = path.resolve(import.meta.dirname, 'fixtures/release-queries');
const LATEST = Object.keys(allMigrations(sqliteAdapter)).sort().at(-1)!;

interface Recorded {
  engine: Engine;
  sql: string;
  params: unknown[][];
}
interface Release {
  release: string;
  lastMigration: string;
  statements: Recorded[];
}

const releases: Release[] = (fs.existsSync(FOLDER) ? fs.readdirSync(FOLDER) : [])
  .filter((file) => file.endsWith('.jsonl'))
  .map((file) => {
    const [header, ...lines] = fs.readFileSync(path.join(FOLDER, file), 'utf8').split('\n').filter(Boolean);
    return {
      ...(JSON.parse(header!) as { release: string; lastMigration: string }),
      statements: lines.map((line) => JSON.parse(line) as Recorded),
    };
  });

/** A recorded parameter as the driver takes it. */
function param(value: unknown, engine: Engine): unknown {
  if (value && typeof value === 'object' && '$bytes' in value)
    return Buffer.from((value as { $bytes: string }).$bytes, 'base64');
  if (value && typeof value === 'object' && '$bigint' in value) {
    const text = (value as { $bigint: string }).$bigint;
    return engine === 'postgres' ? text : BigInt(text);
  }
  return value;
}

const ROLLBACK = new Error('rolled back');

/** Null when the statement runs on `db` (then rolled back), else the database's error. */
async function outcome(db: Kysely<DB>, engine: Engine, statement: string, params: unknown[]): Promise<string | null> {
  try {
    await db.transaction().execute(async (trx) => {
      // Foreign keys are left unchecked, so that an insert into an empty table runs (SQLite's is off for the connection).
      if (engine === 'postgres') await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await trx.executeQuery(
        CompiledQuery.raw(
          statement,
          params.map((value) => param(value, engine)),
        ),
      );
      throw ROLLBACK;
    });
  } catch (err) {
    if (err === ROLLBACK) return null;
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}

/** The statements (with the parameters) that run on `before` and fail on `after`, and how many ran on `before`. */
export async function brokenBy(before: Database, after: Database, engine: Engine, statements: Recorded[]) {
  if (engine === 'sqlite') for (const db of [before.db, after.db]) await sql`PRAGMA foreign_keys = OFF`.execute(db);
  const broken: { sql: string; error: string }[] = [];
  let ran = 0;
  for (const statement of statements.filter((s) => s.engine === engine)) {
    for (const params of statement.params) {
      if ((await outcome(before.db, engine, statement.sql, params)) !== null) continue;
      ran++;
      const error = await outcome(after.db, engine, statement.sql, params);
      if (error !== null) {
        broken.push({ sql: statement.sql.slice(0, 200), error });
        break;
      }
    }
  }
  return { broken, ran };
}

// While `npm run release:queries` records a release, the check that replays recordings stands aside.
describe.skipIf(process.env.RECORD_RELEASE_QUERIES).each(ENGINES)(
  "migrations under the previous release's statements, on %s",
  (engine) => {
    const opened: { database: Database; cleanup: () => Promise<void> }[] = [];
    const at = async (migration: string) => {
      const one = await databaseAt(engine, migration);
      opened.push(one);
      return one.database;
    };
    afterAll(async () => {
      for (const { database, cleanup } of opened) {
        await database.close();
        await cleanup();
      }
    });

    it('has a recorded release to check against, with statements of this engine', () => {
      expect(releases.length).toBeGreaterThan(0);
      for (const release of releases)
        expect(release.statements.filter((s) => s.engine === engine).length, release.release).toBeGreaterThan(100);
    });

    it.each(releases.map((r) => [r.release, r] as const))(
      'every statement of %s that ran on its own schema still runs after every later migration',
      async (_name, release) => {
        const { broken, ran } = await brokenBy(
          await at(release.lastMigration),
          await at(LATEST),
          engine,
          release.statements,
        );
        expect(broken).toEqual([]);
        expect(ran).toBeGreaterThan(100);
      },
      120_000,
    );

    it('fails on a migration that renames a column the release reads, or adds a column it does not fill that must be filled', async () => {
      const release = releases.at(-1)!;
      const before = await at(LATEST);
      const after = await at(LATEST);
      await sql`ALTER TABLE jobs RENAME COLUMN title TO headline`.execute(after.db);
      if (engine === 'postgres') await sql`ALTER TABLE posts ADD COLUMN must_have text NOT NULL`.execute(after.db);
      const { broken } = await brokenBy(before, after, engine, release.statements);
      expect(broken.some((b) => /"title"|\btitle\b/.test(b.sql) && /title/.test(b.error))).toBe(true);
      if (engine === 'postgres')
        expect(broken.some((b) => /insert into "posts"/i.test(b.sql) && /must_have/.test(b.error))).toBe(true);
    }, 120_000);
  },
);
