import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { Engine } from './test-database.js';

export interface ScratchStorage {
  /** What DATABASE_URL is set to for a server process on it. */
  url: string;
  open(): Database;
  drop(): Promise<void>;
}

/**
 * Storage a real server process can be started on, again and again: a PostgreSQL database of its own (dropped
 * afterwards), or a SQLite file in `dir`.
 */
export async function scratchStorage(engine: Engine, dir: string, prefix: string): Promise<ScratchStorage> {
  if (engine === 'sqlite') {
    const url = path.join(dir, 'service.sqlite');
    return { url, open: () => openDatabase({ kind: 'sqlite', url }), drop: async () => undefined };
  }
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open: () => openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 }),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
