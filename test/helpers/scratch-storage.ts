import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/database.js';
import { databaseUrl, type Engine, onServer } from './test-database.js';

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
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  return {
    url,
    open: () => openDatabase({ kind: 'postgres', url, poolSize: 4 }),
    drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
