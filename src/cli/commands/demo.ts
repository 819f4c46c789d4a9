import fs from 'node:fs';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { runServer } from '../../run-server.js';
import type { Command } from '../command.js';
import { printDemo, seedDemo } from './seed-demo.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Start the service on a fresh SQLite database with demo data',
  usage: 'demo',
  options: {},
  async run(_values, { io, config }) {
    if (config.databaseKind !== 'sqlite') {
      throw new Error('npm run demo uses the embedded SQLite database; unset DATABASE_URL (or point it at a SQLite file).');
    }
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${config.databaseUrl}${suffix}`, { force: true });
    const database = openDatabase({ kind: 'sqlite', url: config.databaseUrl });
    await migrateToLatest(database);
    const { manifest, file } = await seedDemo(database, config, Date.now());
    await runServer(config, database, { demoCallback: { clientId: manifest.client.clientId, clientSecret: manifest.client.clientSecret } });
    printDemo(io, config, manifest, file);
    io.out(`Serving on ${config.publicBaseUrl} — press Ctrl+C to stop.`);
    // The server keeps the process alive; close-with-grace stops it on SIGINT/SIGTERM.
    await new Promise<void>(() => undefined);
  },
};
