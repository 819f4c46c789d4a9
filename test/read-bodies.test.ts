import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { DEMO_API_KEY } from '../src/demo/demo-generator.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { ENGINES } from './helpers/test-database.js';

/**
 * Every read a builder makes (post, job and event details and the items of their search pages) answers with
 * the bytes the fixture holds: the bodies the service gave before the reads were rewritten as prepared
 * statements (issue 25), on the demo data and on generated data, in several languages. Both engines are held
 * to the same fixture. `UPDATE_READ_FIXTURES=1 npx vitest run test/read-bodies.test.ts` rewrites it (SQLite).
 */
const FIXTURE = new URL('./fixtures/read-bodies.json.gz', import.meta.url);
const UPDATE = process.env.UPDATE_READ_FIXTURES === '1';
const LANGUAGES = ['ko', 'en', 'ja', 'zh-TW', 'fr'];

type Bodies = Record<string, { status: number; body: string }>;

const expected: Bodies =
  UPDATE || !fs.existsSync(FIXTURE) ? {} : JSON.parse(zlib.gunzipSync(fs.readFileSync(FIXTURE)).toString('utf8'));
const written: Bodies = {};

afterAll(() => {
  if (UPDATE) fs.writeFileSync(FIXTURE, zlib.gzipSync(JSON.stringify(written, null, 0), { level: 9 }));
});

/** The requests of one data set: every search page's items, and details of the ids those pages name and of their neighbours. */
async function readAll(t: TestContext, every: number): Promise<Bodies> {
  const out: Bodies = {};
  const get = async (url: string, language = 'ko') => {
    const key = `${language} ${url}`;
    out[key] = { status: 0, body: '' }; // its place among the keys, in the order asked
    const res = await t.request({
      method: 'GET',
      url,
      headers: { 'x-svc-api-key': DEMO_API_KEY, 'accept-language': language },
    });
    out[key] = { status: res.statusCode, body: res.body };
    return res;
  };
  const idsOf = async (list: string, idField: string) => {
    const ids: Array<number | string> = [];
    for (let page = 1; ; page++) {
      const res = await get(`${list}${list.includes('?') ? '&' : '?'}pageSize=50&page=${page}`);
      const body = res.json() as { totalPages: number; items: Array<Record<string, number | string>> };
      ids.push(...body.items.map((item) => item[idField]!));
      if (page >= body.totalPages) return ids;
    }
  };

  const postIds = (await idsOf('/api/v1/posts?sort=RECENT', 'postId')) as number[];
  const jobIds = (await idsOf('/api/v1/jobs?sort=DATE_DESC', 'jobId')) as number[];
  const eventIds = await idsOf('/api/v1/events', 'eventId');
  for (const language of LANGUAGES) {
    for (const list of [
      '/api/v1/posts?pageSize=30',
      '/api/v1/posts?keyword=%EA%B0%9C%EB%B0%9C&pageSize=50',
      '/api/v1/posts?hasImages=true&sort=RECENT',
      '/api/v1/jobs?pageSize=50',
      '/api/v1/jobs?sort=POPULARITY_DESC&pageSize=50',
      '/api/v1/events?pageSize=50',
    ])
      await get(list, language);
  }
  // Details of posts not in any list too (deleted ones, reposts of deleted posts), by id range. Asked for sixteen
  // at a time, so that the details of one turn of the event loop, in several languages, are read together.
  const details: Array<[string, string]> = [];
  const maxPost = Math.max(...postIds);
  for (let id = 1; id <= maxPost + 2; id += every) {
    for (const language of id % (3 * every) === 1 ? LANGUAGES : ['ko']) details.push([`/api/v1/posts/${id}`, language]);
  }
  const maxJob = Math.max(...jobIds);
  for (let id = 1; id <= maxJob + 2; id += every) {
    for (const language of id % (3 * every) === 1 ? LANGUAGES : ['ko']) details.push([`/api/v1/jobs/${id}`, language]);
  }
  for (const [i, id] of eventIds.entries()) {
    for (const language of i % 3 === 0 ? LANGUAGES : ['ko']) details.push([`/api/v1/events/${id}`, language]);
  }
  for (let i = 0; i < details.length; i += 16)
    await Promise.all(details.slice(i, i + 16).map(([url, language]) => get(url, language)));
  await get('/api/v1/events/not-an-event');
  return out;
}

const DATA_SETS = [
  { name: 'demo', options: {}, every: 1 },
  {
    name: 'generated',
    options: {
      seed: false,
      prepare: (database: Parameters<typeof generateBenchData>[0]) =>
        generateBenchData(database, { posts: 3_000, jobs: 600, events: 60 }, 7, TEST_NOW),
    },
    every: 7,
  },
] as const;

describe.each(UPDATE ? ['sqlite' as const] : ENGINES)('read bodies on %s', (engine) => {
  for (const set of DATA_SETS) {
    describe(set.name, () => {
      let t: TestContext;
      beforeAll(async () => {
        t = await createTestApp(engine, set.options);
      }, 120_000);
      afterAll(async () => {
        await t?.close();
      });

      it("answers every detail and list read with the fixture's bytes", async () => {
        const bodies = await readAll(t, set.every);
        const keys = Object.keys(bodies);
        if (UPDATE) {
          for (const key of keys) written[`${set.name} ${key}`] = bodies[key]!;
          return;
        }
        const fixtureKeys = Object.keys(expected).filter((key) => key.startsWith(`${set.name} `));
        expect(keys.map((key) => `${set.name} ${key}`)).toEqual(fixtureKeys);
        for (const key of keys) {
          const want = expected[`${set.name} ${key}`]!;
          const got = bodies[key]!;
          // Field by field first, for a readable difference; then the bytes (field order included).
          expect({ status: got.status, body: JSON.parse(got.body) }, key).toEqual({
            status: want.status,
            body: JSON.parse(want.body),
          });
          expect(got.body, key).toBe(want.body);
        }
        expect(keys.length).toBeGreaterThan(set.name === 'demo' ? 300 : 500);
      }, 300_000);
    });
  }
});
