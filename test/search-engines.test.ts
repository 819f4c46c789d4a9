import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { JobRepository, type JobSearchFilter } from '../src/modules/jobs/job-repository.js';
import { PostRepository, type PostSearchFilter } from '../src/modules/posts/post-repository.js';
import { EXACT_COUNT_LIMIT, RELEVANCE_CANDIDATES } from '../src/search/bounded-search.js';
import { queryTerms, relevance } from '../src/search/search-text.js';
import { TEST_NOW } from './helpers/test-app.js';
import { createTestDatabase, ENGINES, type Engine, type TestDatabase } from './helpers/test-database.js';

// The demo data plus enough generated posts that broad keywords match well over 10,000 of them.
const DEMO = { posts: 3000, jobs: 2000, events: 10 };
const GENERATED_POSTS = 30_000;

const postFilters: Array<[string, Partial<PostSearchFilter>]> = [
  ['Korean bigram keyword', { terms: queryTerms('개발') }],
  ['Korean three-syllable keyword', { terms: queryTerms('개발자') }],
  ['single CJK character', { terms: queryTerms('발') }],
  ['English words', { terms: queryTerms('Kubernetes experience') }],
  ['Japanese keyword', { terms: queryTerms('東京') }],
  ['Chinese keyword', { terms: queryTerms('开发') }],
  ['keyword with images', { terms: queryTerms('회고'), hasImages: true }],
  ['keyword without an Open Graph card', { terms: queryTerms('회고'), hasOg: false }],
  ['company filter', { authorCompanyId: 1 }],
  ['Open Graph filter', { hasOg: true }],
  ['image filter', { hasImages: true }],
  ['newest first', { order: 'recent' }],
  ['time window', { postedAfter: TEST_NOW - 30 * 86_400_000, postedBefore: TEST_NOW - 10 * 86_400_000 }],
  ['keyword in a time window, newest first', { terms: queryTerms('경험'), postedAfter: TEST_NOW - 60 * 86_400_000, order: 'recent' }],
];

const jobFilters: Array<[string, Partial<JobSearchFilter>]> = [
  ['no filter', {}],
  ['English keyword', { terms: queryTerms('backend') }],
  ['Korean keyword', { terms: queryTerms('개발') }],
  ['three filters', { jobCategories: ['SOFTWARE_ENGINEERING', 'DATA_AI'], seniorities: ['SENIOR', 'JUNIOR'], workTypes: ['REMOTE', 'HYBRID'] }],
  ['company sizes and employment types', { companySizes: ['LARGE'], employmentTypes: ['FULL_TIME'] }],
  ['company', { companyId: 1 }],
  ['newest start first', { order: 'date' }],
  ['most viewed first', { order: 'popularity', seniorities: ['JUNIOR'] }],
];

const post = (f: Partial<PostSearchFilter>): PostSearchFilter => ({ terms: null, order: 'rank', limit: 100, offset: 0, ...f });
const job = (f: Partial<JobSearchFilter>): JobSearchFilter => ({ terms: null, now: TEST_NOW, order: 'rank', limit: 100, offset: 0, ...f });

const databases = new Map<Engine, TestDatabase>();

beforeAll(async () => {
  for (const engine of ENGINES) {
    const db = await createTestDatabase(engine);
    await generateDemoData(db.database, { now: TEST_NOW, ...DEMO });
    await generateBenchData(db.database, { posts: GENERATED_POSTS, jobs: 0, events: 0 }, 7, TEST_NOW);
    databases.set(engine, db);
  }
}, 300_000);

afterAll(async () => {
  for (const db of databases.values()) {
    await db.database.close();
    await db.drop();
  }
});

const repos = (engine: Engine) => {
  const { database } = databases.get(engine)!;
  return { database, posts: new PostRepository(database.db, database.adapter, database.longReads), jobs: new JobRepository(database.db, database.adapter, database.longReads) };
};

/** Every match counted, however many (what the service never does): the truth an estimate is held to. */
async function exactPostCount(engine: Engine, filter: PostSearchFilter): Promise<number> {
  const { database, posts } = repos(engine);
  const { query, range } = posts.indexQuery(filter);
  const [row] = (await database.adapter.countMatches('post_search', query, range, Number.MAX_SAFE_INTEGER).execute(database.db)).rows;
  return Number(row!.n);
}

describe.each(ENGINES)('search rules on %s', (engine) => {
  it('counts exactly up to 10,000 matches', async () => {
    const { posts } = repos(engine);
    for (const [, filter] of postFilters) {
      const exact = await exactPostCount(engine, post(filter));
      if (exact > EXACT_COUNT_LIMIT) continue;
      expect((await posts.search(post(filter))).total).toBe(exact);
    }
  });

  it.each([['다'], ['를'], ['습니다'], ['이 다']])('estimates a count above 10,000 within two percent: %s', async (keyword) => {
    const filter = post({ terms: queryTerms(keyword) });
    const exact = await exactPostCount(engine, filter);
    expect(exact).toBeGreaterThan(EXACT_COUNT_LIMIT);
    const { total } = await repos(engine).posts.search(filter);
    expect(Math.abs(total - exact) / exact, `estimate ${total}, exact ${exact}`).toBeLessThanOrEqual(0.02);
  });

  it('estimates a filtered count above 10,000 within 2%, and counts a time window exactly once it is small', async () => {
    const broad = post({ terms: queryTerms('다'), hasImages: false });
    const exact = await exactPostCount(engine, broad);
    expect(exact).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(Math.abs((await repos(engine).posts.search(broad)).total - exact) / exact).toBeLessThanOrEqual(0.02);
    const windowed = post({ terms: queryTerms('다'), postedAfter: TEST_NOW - 20 * 86_400_000 });
    const exactWindowed = await exactPostCount(engine, windowed);
    expect(exactWindowed).toBeLessThanOrEqual(EXACT_COUNT_LIMIT);
    expect((await repos(engine).posts.search(windowed)).total).toBe(exactWindowed);
  });

  it('ranks the newest 200 matches by relevance, newest first among equals, and the older matches after them newest first', async () => {
    const { posts, database } = repos(engine);
    const terms = queryTerms('경험');
    const { query, range } = posts.indexQuery(post({ terms }));
    const newestKeys = (await database.adapter.matchingIds('post_search', query, range, 'desc', RELEVANCE_CANDIDATES + 30, 0).execute(database.db)).rows.map((r) => Number(r.doc_id));
    const ids = await posts.idsOfKeys(newestKeys);
    const rows = await database.db.selectFrom('posts').select(['id', 'content']).where('id', 'in', ids).execute();
    const translations = await database.db.selectFrom('post_translations').select(['post_id', 'content']).where('post_id', 'in', ids).execute();
    const score = (id: number) => relevance(terms, [rows.find((r) => r.id === id)!.content, ...translations.filter((t) => t.post_id === id).map((t) => t.content)]);
    const keyOf = (id: number) => newestKeys[ids.indexOf(id)]!;
    const candidates = ids.slice(0, RELEVANCE_CANDIDATES);
    const expected = [...candidates].sort((a, b) => score(b) - score(a) || keyOf(b) - keyOf(a));
    const page = async (offset: number, limit: number) => (await posts.search(post({ terms, offset, limit }))).ids;
    expect(await page(0, 50)).toEqual(expected.slice(0, 50));
    // A page across the boundary: the last ranked candidates, then the newest of the rest.
    expect(await page(190, 20)).toEqual([...expected.slice(190, 200), ...ids.slice(200, 210)]);
    expect(await page(200, 20)).toEqual(ids.slice(200, 220));
    expect(new Set(expected).size).toBe(RELEVANCE_CANDIDATES);
  });

  it('orders POPULARITY_DESC and DATE_DESC as the jobs table does, among the hiring jobs that match', async () => {
    const { jobs, database } = repos(engine);
    const filter = job({ seniorities: ['JUNIOR', 'SENIOR'], limit: 60, offset: 20 });
    const hiring = database.db.selectFrom('jobs').select('jobs.id').where('jobs.status', '=', 'published')
      .where('jobs.start_at', '<=', TEST_NOW).where((eb) => eb.or([eb('jobs.end_at', 'is', null), eb('jobs.end_at', '>', TEST_NOW)]))
      .where((eb) => eb.exists(eb.selectFrom('job_seniorities').select('job_id').whereRef('job_seniorities.job_id', '=', 'jobs.id').where('seniority', 'in', ['JUNIOR', 'SENIOR'])));
    const byViews = await hiring.orderBy('jobs.view_count', 'desc').orderBy('jobs.id', 'desc').limit(60).offset(20).execute();
    expect((await jobs.search({ ...filter, order: 'popularity' })).ids).toEqual(byViews.map((r) => r.id));
    const byStart = await hiring.orderBy('jobs.start_at', 'desc').orderBy('jobs.id', 'desc').limit(60).offset(20).execute();
    expect((await jobs.search({ ...filter, order: 'date' })).ids).toEqual(byStart.map((r) => r.id));
  });

  it('orders RECENT by posting time, and a time window keeps exactly the posts posted within it', async () => {
    const { posts, database } = repos(engine);
    const after = TEST_NOW - 40 * 86_400_000;
    const before = TEST_NOW - 5 * 86_400_000;
    const { ids, total } = await posts.search(post({ order: 'recent', postedAfter: after, postedBefore: before, limit: 50 }));
    const truth = await database.db.selectFrom('posts').select('id').where('posted_at', '>=', after).where('posted_at', '<=', before)
      .orderBy('posted_at', 'desc').orderBy('id', 'desc').execute();
    expect(total).toBe(truth.length);
    expect(ids).toEqual(truth.slice(0, 50).map((r) => r.id));
  });
});

describe.skipIf(ENGINES.length < 2)('SQLite and PostgreSQL return the same results', () => {
  it.each(postFilters)('posts: %s', async (_name, filter) => {
    const [a, b] = await Promise.all(ENGINES.map((e) => repos(e).posts.search(post(filter))));
    expect(a!.total).toBeGreaterThan(0);
    expect(b!.total).toBe(a!.total);
    expect(b!.ids).toEqual(a!.ids);
  });

  it.each(jobFilters)('jobs: %s', async (_name, filter) => {
    const [a, b] = await Promise.all(ENGINES.map((e) => repos(e).jobs.search(job(filter))));
    expect(a!.total).toBeGreaterThan(0);
    expect(b!.total).toBe(a!.total);
    expect(b!.ids).toEqual(a!.ids);
  });
});

/**
 * The plan of a search read. A read that visits every match shows it in its plan: SQLite sorts them in a
 * temporary B-tree, PostgreSQL has a Sort node. A bounded read walks the index in id order under a Limit.
 */
async function planOf(engine: Engine, compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const { database } = databases.get(engine)!;
  return (await database.adapter.explain(database.db, compiled.sql, compiled.parameters)).join('\n');
}

describe.each(ENGINES)('query plans on %s', (engine) => {
  const broad: Array<[string, Partial<PostSearchFilter>]> = [
    ['broad keyword', { terms: queryTerms('다') }],
    ['broad keyword, filtered', { terms: queryTerms('다'), hasImages: true, hasOg: false, postedAfter: TEST_NOW - 300 * 86_400_000 }],
    ['no keyword, filtered', { hasOg: false }],
  ];

  it.each(broad)('walk the index under a limit, sorting nothing: %s', async (_name, filter) => {
    const { posts, database } = repos(engine);
    const { query, range } = posts.indexQuery(post(filter));
    const reads = [
      database.adapter.matchingIds('post_search', query, range, 'desc', 20, 40),
      database.adapter.countMatches('post_search', query, range, EXACT_COUNT_LIMIT + 1),
    ];
    for (const read of reads) {
      const plan = await planOf(engine, read.compile(database.db));
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
      if (engine === 'sqlite') expect(plan).toMatch(/SCAN post_search VIRTUAL TABLE INDEX/);
      else expect(plan).toMatch(/Limit/);
    }
    // The count stops at 10,001 matches: what it returns for a keyword in most posts.
    const [capped] = (await reads[1]!.execute(database.db)).rows as Array<{ n: number }>;
    if (!filter.postedAfter) expect(Number(capped!.n)).toBe(EXACT_COUNT_LIMIT + 1);
  });

  it('reads a page of a broad search without touching the posts table', async () => {
    const { posts, database } = repos(engine);
    const { query, range } = posts.indexQuery(post({ terms: queryTerms('다'), hasImages: true }));
    const plan = await planOf(engine, database.adapter.matchingIds('post_search', query, range, 'desc', 20, 0).compile(database.db));
    expect(plan).not.toMatch(/\bposts\b/);
  });
});
