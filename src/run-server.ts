import fs from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { buildApp, type App, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { databaseOptions, openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/**
 * Opens the database named by the settings, applies pending migrations, and serves until SIGINT or SIGTERM; then
 * drains for SHUTDOWN_DRAIN_MS (still serving, /readyz 503, no connection kept alive), stops accepting, finishes
 * in-flight requests and closes the database.
 */
export async function runServer(
  config: Config,
  existing?: Database,
  extra: Pick<AppOptions, 'demoCallback'> = {},
): Promise<{ app: App; database: Database }> {
  // DATA_DIR holds the database, the signing-key secret and uploads: its owner's alone.
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(config.dataDir, 0o700);
  const database = existing ?? openDatabase(databaseOptions(config));
  let newer: string[] = [];
  await migrateToLatest(database, (names) => {
    newer = names;
  });
  const app = await buildApp({ config, database, ...extra });
  if (newer.length)
    app.log.warn(
      { migrations: newer },
      'the database holds migrations of a newer release, unknown to this one: serving on them (each is expand-only)',
    );
  closeWithGrace({ delay: config.shutdownDrainMs + 15_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'stopping after an uncaught error');
    else if (config.shutdownDrainMs > 0) {
      app.log.info(
        { signal, drainMs: config.shutdownDrainMs },
        'shutting down: draining (readiness 503, connections not kept alive)',
      );
      app.startDraining();
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    if (!err) app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
    await database.close();
    app.log.info({ signal }, 'stopped');
  });
  await app.listen({ port: config.port, host: config.host });
  return { app, database };
}
