import { redactUrl } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Command } from '../command.js';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply pending database migrations',
  usage: 'migrate',
  options: {},
  async run(_values, { io, config }) {
    const database = openDatabase({ kind: config.databaseKind, url: config.databaseUrl });
    try {
      const applied = await migrateToLatest(database);
      io.out(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      io.out(`Database: ${redactUrl(config.databaseUrl)}`);
    } finally {
      await database.close();
    }
  },
};
