/** `db status` on both engines: every migration of the release, pending before `migrate`, applied (with when) after. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { allMigrations } from '../src/db/migrations/index.js';
import { sqliteAdapter } from '../src/db/dialects/sqlite-adapter.js';
import { scratchStorage, type ScratchStorage } from './helpers/scratch-storage.js';
import { ENGINES } from './helpers/test-database.js';

const MIGRATIONS = Object.keys(allMigrations(sqliteAdapter)).length;

describe.each(ENGINES)('db status on %s', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-db-status-'));
  const env: Record<string, string> = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
  // A PostgreSQL database of its own: migrations take a lock of the whole database, which other files' must not wait on.
  let storage: ScratchStorage | undefined;
  beforeAll(async () => {
    if (engine !== 'postgres') return;
    storage = await scratchStorage('postgres', dir, 'status');
    env.DATABASE_URL = storage.url;
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await storage?.drop();
  });

  const status = async () => {
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await runCli(
        ['db', 'status'],
        {
          out: (l) => {
            out.push(l);
          },
          err: (l) => {
            err.push(l);
          },
        },
        env,
      ),
      err.join('\n'),
    ).toBe(0);
    return out;
  };

  it('lists every migration as pending on a new database, then as applied with its time after migrate', async () => {
    const before = await status();
    expect(before[0]).toContain(engine === 'postgres' ? '(PostgreSQL)' : '(SQLite)');
    expect(before.filter((line) => /^\s+pending\s+\d{4}-\d{2}-\d{2}-\d{3}-/.test(line))).toHaveLength(MIGRATIONS);
    expect(before.at(-1)).toBe(`${MIGRATIONS} of ${MIGRATIONS} pending: \`npm run cli -- migrate\` applies them.`);

    expect(await runCli(['migrate'], { out: () => undefined, err: () => undefined }, env)).toBe(0);
    const after = await status();
    expect(
      after.filter((line) => /^\s+applied \d{4}-\d{2}-\d{2}T[\d:.]+Z\s+\d{4}-\d{2}-\d{2}-\d{3}-/.test(line)),
    ).toHaveLength(MIGRATIONS);
    expect(after.at(-1)).toBe(`Up to date: ${MIGRATIONS} applied.`);
  });
});
