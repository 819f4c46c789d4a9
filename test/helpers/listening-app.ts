import type { FastifyServerOptions } from 'fastify';
import { buildApp, type App } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { generateDemoData, type DemoManifest } from '../../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../../src/shared/passwords.js';
import { testConfig } from './test-app.js';
import { createTestDatabase, type Engine, type TestDatabase } from './test-database.js';
import { freePort } from '../../support/free-port.js';

export interface ListeningApp {
  app: App;
  config: Config;
  base: string;
  db: TestDatabase;
  demo: DemoManifest;
  /** Milliseconds added to the real clock, to move the service into the future; or, when `frozen` is set, the time it stands still at. */
  clock: { offset: number; frozen?: number };
  close(): Promise<void>;
}

/**
 * Moves `clock` forward to one second past the start of its next window of `windowMs` (the fixed windows the
 * rate limits and sign-in throttles count in), so that a test counting in one window cannot straddle two.
 */
export function startOfNextWindow(clock: { offset: number }, windowMs: number): void {
  const now = Date.now() + clock.offset;
  clock.offset += windowMs - (now % windowMs) + 1_000;
}

/** A demo-seeded app listening on 127.0.0.1, whose PUBLIC_BASE_URL (the OAuth issuer) is its own address. */
export async function startListeningApp(
  engine: Engine,
  settings: Record<string, string> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<ListeningApp> {
  const db = await createTestDatabase(engine);
  const clock: ListeningApp['clock'] = { offset: 0 };
  const now = () => clock.frozen ?? Date.now() + clock.offset;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const demo = await generateDemoData(db.database, {
    now: Date.now(),
    publicBaseUrl: base,
    passwordCost: MIN_PASSWORD_COST,
  });
  const config = testConfig({ PUBLIC_BASE_URL: base, ...settings });
  const app = await buildApp({ config, database: db.database, clock: now, logger });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    config,
    base,
    db,
    demo,
    clock,
    close: async () => {
      await app.close();
      await db.database.close();
      await db.drop();
    },
  };
}

export interface SecondInstance {
  app: App;
  base: string;
  close(): Promise<void>;
}

/**
 * A second instance of the service on the same data (its own connection to the same SQLite file or
 * PostgreSQL schema), with the same public address and the same clock as `first`: two instances behind one
 * load balancer.
 */
export async function startSecondInstance(
  first: ListeningApp,
  settings: Record<string, string> = {},
): Promise<SecondInstance> {
  const database = first.db.reopen();
  const port = await freePort();
  // A name of its own: an instance frees what an earlier run under its name left (claims, webhook leases).
  const config = testConfig({ PUBLIC_BASE_URL: first.base, INSTANCE_NAME: `second-${port}`, ...settings });
  const app = await buildApp({
    config,
    database,
    clock: () => first.clock.frozen ?? Date.now() + first.clock.offset,
    logger: false,
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
