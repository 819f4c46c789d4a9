import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, requestFor, type Known } from './helpers/fuzz-requests.js';
import { createTestApp, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';
import { accessToken } from './helpers/tokens.js';

/**
 * Property-based fuzzing driven by the served OpenAPI document: every operation, with valid credentials most of
 * the time and hostile values everywhere (types, bounds, unicode and U+0000, FTS5 and tsquery syntax, nesting,
 * duplicate and missing parts, wrong content types, huge headers). `npm test` runs a fixed seed at a size that
 * keeps CI short; `npm run fuzz` runs longer (FUZZ_RUNS per operation, FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const LEAK =
  /\bat .+\.(ts|js):\d+|node_modules|\/src\/|\/work\/|SQLITE_|sqlite3?|postgres|pg_catalog|syntax error|SELECT |INSERT INTO|relation "|violates|\bstack\b|Error: /i;
const ERROR_KEYS = ['code', 'details', 'message', 'timestamp'];

describe.each(ENGINES)('fuzzing every operation on %s', (engine) => {
  let t: TestContext;
  let known: Known;
  const tally = { requests: 0, serverErrors: 0, nonConforming: 0 };
  beforeAll(async () => {
    t = await createTestApp(engine);
    const event = await t.db.database.db
      .selectFrom('events')
      .innerJoin('companies', 'companies.id', 'events.company_id')
      .select('events.id')
      .where('companies.handle', '=', 'acme-labs')
      .where('events.status', '=', 'published')
      .executeTakeFirstOrThrow();
    known = {
      apiKey: t.demo.apiKey,
      bearer: await accessToken(
        t,
        'profile email post:write job:write job:manage:read event:write company:manage:read',
      ),
      postId: t.demo.posts.company,
      jobId: t.demo.jobs.hiring,
      eventId: event.id,
      company: 'acme-labs',
    };
  });
  afterAll(async () => {
    console.warn(
      `fuzz ${engine}: ${tally.requests} requests, ${tally.serverErrors} 5xx, ${tally.nonConforming} non-conforming bodies (seed ${SEED}, ${RUNS} per operation)`,
    );
    await t?.close();
  });

  it('answers every request without a 5xx, in the ErrorResponse body under /api/v1, leaking nothing', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(40);
    for (const [i, op] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, known), async (request) => {
          const response = await t.app.inject(request);
          tally.requests++;
          const where = `${request.method} ${request.url.slice(0, 200)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          if (response.statusCode >= 500) tally.serverErrors++;
          expect(response.statusCode, where).toBeLessThan(500);
          // What a 2xx body holds is data (posts may well say "postgres"); an error body must say nothing inside.
          if (response.statusCode >= 400) expect(response.body, where).not.toMatch(LEAK);
          if (request.url.startsWith('/api/v1/') && response.statusCode >= 400) {
            let body: Record<string, unknown> = {};
            try {
              body = response.json();
            } catch {
              /* counted below */
            }
            const conforms =
              Object.keys(body).sort().join() === ERROR_KEYS.join() &&
              typeof body.code === 'string' &&
              typeof body.message === 'string' &&
              typeof body.timestamp === 'string' &&
              (body.details === null || typeof body.details === 'string');
            if (!conforms) tally.nonConforming++;
            expect(conforms, where).toBe(true);
          }
        }),
        { seed: SEED + i, numRuns: RUNS, endOnFailure: true },
      );
    }
  }, 600_000);
});
