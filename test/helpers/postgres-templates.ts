import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { generateDemoData } from '../../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import { TEST_NOW } from './test-app.js';
import { databaseUrl, onServer, TEMPLATE_SCHEMA } from './test-database.js';
// The templates' statements are the run's too: recorded when RECORD_RELEASE_QUERIES asks (npm run release:queries).
import './query-recorder.js';

/**
 * Vitest's global setup, when TEST_DATABASE_URL is set: two template databases for the run, one migrated and one
 * with the demo data too, which every PostgreSQL test database is copied from (test-database.ts) instead of being
 * migrated (and seeded) again. Dropped when the run ends.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.TEST_DATABASE_URL) return undefined;
  const run = `svc_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  const migrated = `${run}_migrated`;
  const demo = `${run}_demo`;
  await onServer(`CREATE DATABASE ${migrated}`);
  const fill = async (name: string, seed: boolean) => {
    const database = openDatabase({ kind: 'postgres', url: databaseUrl(name), searchPath: TEMPLATE_SCHEMA });
    try {
      await database.db.schema.createSchema(TEMPLATE_SCHEMA).ifNotExists().execute();
      await migrateToLatest(database);
      return seed ? await generateDemoData(database, { now: TEST_NOW, passwordCost: MIN_PASSWORD_COST }) : undefined;
    } finally {
      await database.close();
    }
  };
  await fill(migrated, false);
  // A template is copied only while nothing is connected to it: every connection above is closed.
  await onServer(`CREATE DATABASE ${demo} TEMPLATE ${migrated}`);
  const demoManifest = await fill(demo, true);
  project.provide('postgresTemplates', { migrated, demo, demoManifest: demoManifest! });
  return () =>
    onServer(`DROP DATABASE IF EXISTS ${migrated} WITH (FORCE)`, `DROP DATABASE IF EXISTS ${demo} WITH (FORCE)`);
}
