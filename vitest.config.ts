import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The drills: tests that are slow because they must be. They start real servers as processes and kill them, walk
 * pages in Chromium, run the demo and the getting-started walk as a newcomer would, pack the SDK, pause a database, fill a disk.
 * CI runs them once; the fast tier, everything else, runs on every runtime (docs/development.md, "Tests").
 */
export const DRILLS = [
  'test/crash.test.ts',
  'test/webhook-crash.test.ts',
  'test/rolling-restart.test.ts',
  'test/process-signals.test.ts',
  'test/image-process.test.ts',
  'test/database-unavailable.test.ts',
  'test/disk-full.test.ts',
  'test/bench-smoke.test.ts',
  'test/docs-page.test.ts',
  'test/console.test.ts',
  'test/webhooks-console.test.ts',
  'test/oauth-third-party-browser.test.ts',
  'test/readme-walkthrough.test.ts',
  'test/demo-command.test.ts',
  'test/sdk-package.test.ts',
  'test/mcp-conformance.test.ts',
  'test/mcp-agent-browser.test.ts',
  'test/mcp-flood.test.ts',
  'test/postgres-restart.test.ts',
  'test/dynamic-registration-browser.test.ts',
  'test/mcp-remote.test.ts',
  'test/mcp-inspector.test.ts',
  'test/start-build.test.ts',
  'test/site-browser.test.ts',
  'test/tracing.test.ts',
  'test/blocked-index-reads.test.ts',
  'test/previous-release.test.ts',
  'test/nginx-faults.test.ts',
];

/**
 * Test files at once: one per core and one more, since most of a file's time is spent waiting on its database, its
 * child processes or its sockets rather than computing (TEST_WORKERS overrides).
 */
const workers = Number(process.env.TEST_WORKERS) || os.availableParallelism() + 1;

export default defineConfig({
  test: {
    pool: 'forks',
    // Templates made once per run, which every test database is copied from: SQLite files and (with
    // TEST_DATABASE_URL) PostgreSQL databases, migrated, and migrated with the demo data.
    globalSetup: ['test/helpers/demo-template.ts', 'test/helpers/postgres-templates.ts'],
    // Does nothing unless RECORD_RELEASE_QUERIES is set (npm run release:queries).
    setupFiles: ['test/helpers/query-recorder.ts'],
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: DRILLS,
          // A worker loads the service's modules once for all the files it runs, instead of once a file (about 3 s
          // of CPU each); each file still makes its own databases and apps, and leaves no global state behind.
          isolate: false,
          setupFiles: ['test/helpers/shared-worker-guard.ts'],
        },
      },
      {
        extends: true,
        // The servers the drills start and kill run the compiled service, built once for the run.
        test: { name: 'drills', include: DRILLS, globalSetup: ['test/helpers/compiled-service.ts'] },
      },
    ],
  },
});
