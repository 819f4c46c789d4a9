import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { generateDemoData, type DemoManifest } from '../../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { TEST_NOW } from './test-app.js';
// The templates' statements are the run's too: recorded when RECORD_RELEASE_QUERIES asks (npm run release:queries).
import './query-recorder.js';

export interface DemoTemplate {
  file: string;
  demo: DemoManifest;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite file with the demo data at TEST_NOW, which test apps copy instead of seeding their own. */
    sqliteDemoTemplate: DemoTemplate;
    /** A migrated SQLite file without data, which every other SQLite test database copies. */
    sqliteMigratedTemplate: string;
  }
}

/**
 * Vitest's global setup: one SQLite database migrated, and one migrated and seeded with the demo data, once for the
 * whole run. Each test database on SQLite is a copy of one of them (milliseconds) instead of being migrated (a
 * sixth of a second) and seeded (1.5-2 s of CPU). The demo data is deterministic, so a copy holds what seeding
 * would have written.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-template-'));
  const migrated = path.join(dir, 'migrated.sqlite');
  const database = openDatabase({ kind: 'sqlite', url: migrated });
  await migrateToLatest(database);
  // Closing the last connection checkpoints the write-ahead log into the file: the file alone holds the data.
  await database.close();
  const file = path.join(dir, 'demo.sqlite');
  fs.copyFileSync(migrated, file);
  const seeded = openDatabase({ kind: 'sqlite', url: file });
  const demo = await generateDemoData(seeded, { now: TEST_NOW, passwordCost: MIN_PASSWORD_COST });
  await seeded.close();
  project.provide('sqliteMigratedTemplate', migrated);
  project.provide('sqliteDemoTemplate', { file, demo });
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
