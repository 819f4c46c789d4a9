import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { generateDemoData, type DemoManifest } from '../../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import { createTestDatabase } from './test-database.js';
import { TEST_NOW } from './test-app.js';

export interface DemoTemplate {
  file: string;
  demo: DemoManifest;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite file with the demo data at TEST_NOW, which test apps copy instead of seeding their own. */
    sqliteDemoTemplate: DemoTemplate;
  }
}

/**
 * Vitest's global setup: migrates and seeds one SQLite database with the demo data, once for the whole run. Each
 * test app that wants the plain demo on SQLite copies the file (milliseconds) instead of migrating and seeding
 * (1.5-2 s of CPU each). The demo data is deterministic, so a copy holds what seeding would have written.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-template-'));
  const db = await createTestDatabase('sqlite');
  const demo = await generateDemoData(db.database, { now: TEST_NOW, passwordCost: MIN_PASSWORD_COST });
  await db.database.close();
  const file = path.join(dir, 'demo.sqlite');
  // Closing the last connection checkpoints the write-ahead log into the file: the file alone holds the data.
  fs.copyFileSync(db.file!, file);
  await db.drop();
  project.provide('sqliteDemoTemplate', { file, demo });
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
