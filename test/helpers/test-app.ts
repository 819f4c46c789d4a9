import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { allLimitSettings } from '../../src/rate-limit/limit-settings.js';
import { MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import type { Database } from '../../src/db/database.js';
import type { MediaStore } from '../../src/media/media-store.js';
import { generateDemoData, type DemoManifest } from '../../src/demo/demo-generator.js';
import { OpenApiConformance } from './openapi-conformance.js';
import {
  copyOfPostgresTemplate,
  copyOfSqliteFile,
  createTestDatabase,
  type Engine,
  type TestDatabase,
} from './test-database.js';

export const TEST_NOW = Date.parse('2026-11-21T03:00:00Z');

export interface TestContext {
  app: App;
  config: Config;
  db: TestDatabase;
  demo: DemoManifest;
  clock: { now: number };
  /** Injects a request and checks the response against the OpenAPI document. */
  request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
  /** GET with the demo app key. */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Every rate limit raised, so functional tests are not limited; rate-limit tests set their own. */
export const GENEROUS_LIMITS = allLimitSettings(1_000_000);

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...GENEROUS_LIMITS,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-')),
    PUBLIC_BASE_URL: 'https://api.test.example',
    WEB_BASE_URL: 'https://www.test.example',
    LOG_LEVEL: 'silent',
    SIGNING_KEY_SECRET: 'test-only-signing-key-secret-0123456789',
    // Passwords hashed at the least cost the settings allow (about a sixth of the default's CPU).
    PASSWORD_HASH_MEMORY_KIB: String(MIN_PASSWORD_COST.memoryKiB),
    PASSWORD_HASH_PASSES: String(MIN_PASSWORD_COST.passes),
    ...overrides,
  });
}

/** A copy of the run's demo-seeded template database of `engine`, with the demo's manifest. */
async function copyOfDemoTemplate(engine: Engine): Promise<{ db: TestDatabase; demo: DemoManifest }> {
  if (engine === 'sqlite') {
    const { file, demo } = inject('sqliteDemoTemplate');
    return { db: await copyOfSqliteFile(file), demo: structuredClone(demo) };
  }
  const { demo, demoManifest } = inject('postgresTemplates');
  return { db: await copyOfPostgresTemplate(demo), demo: structuredClone(demoManifest) };
}

/** A new migrated database of `engine`, seeded with the demo data (`demoCounts` of it) unless `seed` is false. */
async function freshDatabase(
  engine: Engine,
  options: { seed?: boolean; demoCounts?: { posts?: number; jobs?: number; events?: number } },
): Promise<{ db: TestDatabase; demo: DemoManifest }> {
  const db = await createTestDatabase(engine);
  if (options.seed === false) return { db, demo: undefined as unknown as DemoManifest };
  const demo = await generateDemoData(db.database, {
    now: TEST_NOW,
    passwordCost: MIN_PASSWORD_COST,
    ...options.demoCounts,
  });
  return { db, demo };
}

/** A fresh app on a fresh, demo-seeded database of `engine`, with a controllable clock. */
export async function createTestApp(
  engine: Engine,
  options: {
    seed?: boolean;
    /** More demo posts, jobs or events than the demo's own. */
    demoCounts?: { posts?: number; jobs?: number; events?: number };
    /** Changes to the data before the app starts (and builds its search indexes from it). */
    prepare?: (database: Database) => Promise<void>;
    config?: Record<string, string>;
    mediaStore?: MediaStore;
  } = {},
): Promise<TestContext> {
  // The plain demo is a copy of the run's template (demo-template.ts, postgres-templates.ts), not seeded again.
  const plainDemo = options.seed !== false && !options.demoCounts;
  const { db, demo } = plainDemo ? await copyOfDemoTemplate(engine) : await freshDatabase(engine, options);
  const clock = { now: TEST_NOW };
  await options.prepare?.(db.database);
  const config = testConfig(options.config);
  const app = await buildApp({
    config,
    database: db.database,
    clock: () => clock.now,
    logger: false,
    mediaStore: options.mediaStore,
  });
  const conformance = await OpenApiConformance.of(app);

  const request = async (opts: InjectOptions & { url: string }) => {
    const response = await app.inject(opts);
    expect(conformance.check(opts.method ?? 'GET', opts.url, response), `${opts.method ?? 'GET'} ${opts.url}`).toEqual(
      [],
    );
    return response;
  };
  return {
    app,
    config,
    db,
    demo,
    clock,
    request,
    get: (url, headers = {}) =>
      request({ method: 'GET', url, headers: { 'x-svc-api-key': demo?.apiKey ?? '', ...headers } }),
    close: async () => {
      await app.close();
      await db.database.close();
      await db.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another instance of the service in this process on `t`'s database and clock: a second process behind the same load
 * balancer, or this one after a restart (close `t.app` first). `config` replaces `t.config` (other limits, say).
 */
export function anotherInstance(t: Pick<TestContext, 'config' | 'db' | 'clock'>, config = t.config): Promise<App> {
  return buildApp({ config, database: t.db.database, clock: () => t.clock.now, logger: false });
}
