import { companyIndexCopy } from '../../modules/companies/company-index.js';
import { profileIndexCopy } from '../../modules/profiles/profile-index.js';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { newFeedEpoch } from '../../change-feed/change-log.js';
import { sqliteAdapter } from '../../db/dialects/sqlite-adapter.js';
import type { Config } from '../../config.js';
import { allMigrations } from '../../db/migrations/index.js';
import { eventIndexCopy } from '../../modules/events/event-index.js';
import { jobIndexCopy } from '../../modules/jobs/job-index.js';
import { postIndexCopy } from '../../modules/posts/post-index.js';
import { required, type Command, type Io } from '../command.js';

/** The SQLite file the settings name; PostgreSQL has its own tools. */
function sqliteFile(config: Config): string {
  if (config.databaseKind !== 'sqlite') {
    throw new Error(
      'DATABASE_URL names PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/deployment.md, "Backups").',
    );
  }
  return config.databaseUrl;
}

const COUNTED = ['users', 'apps', 'posts', 'jobs', 'events'] as const;

interface Verdict {
  problems: string[];
  lines: string[];
}

/**
 * What `db verify` checks of a SQLite file: SQLite's own integrity and foreign-key checks, and that its migrations
 * are ones this code knows (a backup from newer code cannot be served by this one; an older one is migrated at
 * start). Also the rows it holds, for the operator to compare.
 */
export function verifySqliteFile(file: string): Verdict {
  if (!fs.existsSync(file)) return { problems: [`${file} does not exist`], lines: [] };
  const problems: string[] = [];
  const lines: string[] = [];
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    return {
      problems: [`${file} cannot be opened as SQLite: ${err instanceof Error ? err.message : String(err)}`],
      lines,
    };
  }
  try {
    const integrity = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok')
      problems.push(
        `integrity_check: ${integrity
          .slice(0, 5)
          .map((r) => r.integrity_check)
          .join('; ')}`,
      );
    const foreign = db.pragma('foreign_key_check') as unknown[];
    if (foreign.length > 0) problems.push(`foreign_key_check: ${foreign.length} rows point at nothing`);
    const known = Object.keys(allMigrations(sqliteAdapter));
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    const applied = hasTable
      ? (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map(
          (r) => r.name,
        )
      : [];
    if (applied.length === 0) problems.push("no migration was ever applied: this is not the service's database");
    const unknown = applied.filter((name) => !known.includes(name));
    if (unknown.length > 0)
      problems.push(`migrations this code does not know (the file is from a newer release): ${unknown.join(', ')}`);
    const pending = known.filter((name) => !applied.includes(name));
    lines.push(
      `Migrations: ${applied.length} applied${pending.length ? `, ${pending.length} to apply at start (${pending.join(', ')})` : ', up to date'}`,
    );
    if (applied.length > 0) {
      lines.push(
        `Rows: ${COUNTED.map((table) => `${table} ${(db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n}`).join(', ')}`,
      );
    }
  } finally {
    db.close();
  }
  return { problems, lines };
}

function report(io: Io, file: string, verdict: Verdict): void {
  for (const line of verdict.lines) io.out(line);
  if (verdict.problems.length === 0) io.out(`${file}: ok`);
  for (const problem of verdict.problems) io.err(`${file}: ${problem}`);
}

/** Whether another connection (a running instance, a CLI) has the file open: it then holds WAL's shared lock. */
function inUse(file: string): boolean {
  const db = new BetterSqlite3(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    // Alone: fold the write-ahead log into the file, so that what is moved aside is complete by itself.
    db.pragma('wal_checkpoint(TRUNCATE)');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    db.close();
  }
}

/**
 * Gives the change feed of a restored copy a new epoch: cursors handed out before the restore then get 410 and their
 * clients read the state again, instead of skipping the changes that reuse the positions they saw (docs/changes.md).
 */
function renameFeedCopy(file: string): void {
  const db = new BetterSqlite3(file);
  try {
    const hasFeed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'change_feed_state'").get();
    if (hasFeed) db.prepare("UPDATE change_feed_state SET value = ? WHERE name = 'epoch'").run(newFeedEpoch());
  } finally {
    db.close();
  }
}

/** Waits until the file's bytes are on disk, so that renaming it into place cannot leave a half-written file. */
function flushToDisk(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export const dbBackupCommand: Command = {
  name: 'db backup',
  summary: 'Copy the SQLite database to a file while the service runs (a consistent snapshot), then verify the copy',
  usage: 'db backup --to FILE',
  options: { to: { type: 'string' } },
  async run(values, { io, config }) {
    const source = sqliteFile(config);
    const target = path.resolve(required(values, 'to'));
    if (fs.existsSync(target)) throw new Error(`${target} exists; name a new file`);
    const partial = `${target}.partial`;
    fs.rmSync(partial, { force: true });
    // The copy holds what the database holds (password and key hashes, sealed secrets): its owner's alone. VACUUM INTO
    // writes into an empty file, keeping its mode.
    fs.closeSync(fs.openSync(partial, 'wx', 0o600));
    const started = Date.now();
    // VACUUM INTO reads one snapshot in one read transaction: instances keep reading and writing meanwhile, and
    // the copy holds every transaction committed before it began and nothing of any later one.
    const db = new BetterSqlite3(source, { fileMustExist: true, timeout: 5_000 });
    try {
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    flushToDisk(partial);
    fs.renameSync(partial, target);
    io.out(
      `Backed up ${source} to ${target} (${(fs.statSync(target).size / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    const verdict = verifySqliteFile(target);
    report(io, target, verdict);
    if (verdict.problems.length > 0) throw new Error('the backup did not verify');
  },
};

export const dbVerifyCommand: Command = {
  name: 'db verify',
  summary: 'Check a SQLite database or backup: integrity, foreign keys, migrations this code knows; print its rows',
  usage: 'db verify [--file FILE]',
  options: { file: { type: 'string' } },
  async run(values, { io, config }) {
    const file = typeof values.file === 'string' ? path.resolve(values.file) : sqliteFile(config);
    const verdict = verifySqliteFile(file);
    report(io, file, verdict);
    if (verdict.problems.length > 0) throw new Error(`${file} did not verify`);
  },
};

export const dbRestoreCommand: Command = {
  name: 'db restore',
  summary:
    'Replace the SQLite database with a verified backup (every instance stopped); the old file is kept beside it',
  usage: 'db restore --from FILE',
  options: { from: { type: 'string' } },
  async run(values, { io, config }) {
    const target = sqliteFile(config);
    const backup = path.resolve(required(values, 'from'));
    const verdict = verifySqliteFile(backup);
    report(io, backup, verdict);
    if (verdict.problems.length > 0) throw new Error('the backup did not verify; nothing was changed');
    if (fs.existsSync(target) && inUse(target)) {
      throw new Error(
        `${target} is in use (a running instance or command has it open): stop every instance, then restore; nothing was changed`,
      );
    }
    const incoming = `${target}.restoring`;
    fs.copyFileSync(backup, incoming);
    renameFeedCopy(incoming);
    flushToDisk(incoming);
    if (fs.existsSync(target)) {
      const aside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(target, aside);
      io.out(`The database it replaces is kept as ${aside} (delete it once the restore is confirmed).`);
    }
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(incoming, target);
    // The saved search indexes describe the replaced database: instances build new ones from the restored tables.
    for (const copy of [postIndexCopy, jobIndexCopy, eventIndexCopy, companyIndexCopy, profileIndexCopy].map((of) =>
      of(config.dataDir),
    ))
      fs.rmSync(copy, { force: true });
    io.out(
      `Restored ${backup} as ${target}. Start the service: it applies any pending migration and builds the search indexes from the tables.`,
    );
  },
};
