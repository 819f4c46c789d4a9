import { redactUrl } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest, migrationStatus } from '../../db/migrate.js';
import type { Command } from '../command.js';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply pending database migrations',
  usage: 'migrate',
  options: {},
  async run(_values, { io, config }) {
    const database = openDatabase({ kind: config.databaseKind, url: config.databaseUrl });
    try {
      let newer: string[] = [];
      const applied = await migrateToLatest(database, (names) => {
        newer = names;
      });
      io.out(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
      if (newer.length) io.out(`Also applied, by a newer release this one does not know: ${newer.join(', ')}`);
      io.out(`Database: ${redactUrl(config.databaseUrl)}`);
    } finally {
      await database.close();
    }
  },
};

export const dbStatusCommand: Command = {
  name: 'db status',
  summary: 'List the migrations this release has: which are applied (and when) and which are pending',
  usage: 'db status',
  options: {},
  async run(_values, { io, config }) {
    // Opened without migrating: status reads what is there.
    const database = openDatabase({ kind: config.databaseKind, url: config.databaseUrl });
    try {
      const migrations = await migrationStatus(database);
      io.out(
        `Database: ${redactUrl(config.databaseUrl)} (${config.databaseKind === 'postgres' ? 'PostgreSQL' : 'SQLite'})`,
      );
      for (const m of migrations)
        io.out(
          `  ${m.appliedAt ? `applied ${m.appliedAt.toISOString()}` : 'pending                            '}  ${m.name}`,
        );
      const pending = migrations.filter((m) => !m.appliedAt).length;
      io.out(
        pending === 0
          ? `Up to date: ${migrations.length} applied.`
          : `${pending} of ${migrations.length} pending: \`npm run cli -- migrate\` applies them.`,
      );
    } finally {
      await database.close();
    }
  },
};
