import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { JobRepository, type JobSearchFilter } from '../src/modules/jobs/job-repository.js';
import { EXACT_COUNT_LIMIT } from '../src/search/bounded-search.js';
import { PostIndex, RELEVANCE_CANDIDATES, type PostSearchFilter } from '../src/search/post-index.js';
import { TIERS } from '../src/search/posting-index.js';
import { FACETS, postTokens } from '../src/search/search-documents.js';
import { queryTerms } from '../src/search/search-text.js';
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
const postIndexes = new Map<Engine, PostIndex>();

beforeAll(async () => {
  for (const engine of ENGINES) {
    const db = await createTestDatabase(engine);
    await generateDemoData(db.database, { now: TEST_NOW, ...DEMO });
    await generateBenchData(db.database, { posts: GENERATED_POSTS, jobs: 0, events: 0 }, 7, TEST_NOW);
    databases.set(engine, db);
    const index = new PostIndex(db.database.db);
    await index.ready();
    postIndexes.set(engine, index);
  }
  truths = await postTruths(databases.get(ENGINES[0]!)!);
}, 300_000);

afterAll(async () => {
  for (const db of databases.values()) {
    await db.database.close();
    await db.drop();
  }
});

const repos = (engine: Engine) => {
  const { database } = databases.get(engine)!;
  return { database, posts: postIndexes.get(engine)!, jobs: new JobRepository(database.db, database.adapter, database.longReads) };
};

/**
 * Every post with its tokens and texts, read and tokenized here, apart from the index: what a filter matches
 * and how relevance scores it are computed from this, row by row, as the truth the index is held to.
 */
interface PostTruth { id: number; postedAt: number; tokens: Map<string, number>; length: number }
let truths: PostTruth[] = [];

async function postTruths(test: TestDatabase): Promise<PostTruth[]> {
  const db = test.database.db;
  const rows = await db.selectFrom('posts').select(['id', 'content', 'image_count', 'has_og', 'author_company_id', 'posted_at']).execute();
  const translations = await db.selectFrom('post_translations').select(['post_id', 'content']).execute();
  const byPost = new Map<number, Array<string | null>>();
  for (const t of translations) byPost.set(t.post_id, [...(byPost.get(t.post_id) ?? []), t.content]);
  return rows.map((row) => {
    const own = byPost.get(row.id) ?? [];
    const tokens = new Map<string, number>();
    for (const token of postTokens(row, own)) tokens.set(token, (tokens.get(token) ?? 0) + 1);
    const length = [row.content, ...own].reduce((n, text) => n + (text ? text.normalize('NFKC').toLowerCase().length : 0), 0);
    return { id: row.id, postedAt: Number(row.posted_at), tokens, length };
  });
}

/** The posts a filter matches, newest first, by reading every post's tokens. */
function matchingPosts(filter: PostSearchFilter): PostTruth[] {
  return truths.filter((p) => (filter.terms ?? []).every((term) => p.tokens.has(term))
    && (filter.authorCompanyId === undefined || p.tokens.has(FACETS.company(filter.authorCompanyId)))
    && (filter.hasImages === undefined || p.tokens.has(FACETS.postImages) === filter.hasImages)
    && (filter.hasOg === undefined || p.tokens.has(FACETS.postOg) === filter.hasOg)
    && (filter.postedAfter === undefined || p.postedAt >= filter.postedAfter)
    && (filter.postedBefore === undefined || p.postedAt <= filter.postedBefore))
    .sort((a, b) => b.postedAt - a.postedAt || b.id - a.id);
}

/** The relevance rule of docs/search.md, computed from a post's own tokens. */
function expectedRelevance(terms: string[], post: PostTruth): number {
  let score = 0;
  for (const term of terms) {
    const n = post.tokens.get(term) ?? 0;
    const tier = n === 0 ? 0 : [...TIERS].reverse().find((least) => n >= least) ?? 1;
    score += Math.log1p(tier);
  }
  return score / Math.log(Math.E + post.length / 500);
}

describe.each(ENGINES)('search rules on %s', (engine) => {
  it('counts every filter exactly, however many posts match', async () => {
    const { posts } = repos(engine);
    const broad = [['다'], ['를'], ['습니다'], ['이 다']].map(([keyword]) => post({ terms: queryTerms(keyword!) }));
    for (const filter of [...postFilters.map(([, f]) => post(f)), ...broad, post({ terms: queryTerms('다'), hasImages: false })]) {
      const truth = matchingPosts(filter);
      expect((await posts.search(filter)).total, JSON.stringify(filter)).toBe(truth.length);
    }
    // The broad ones are far above the old estimate threshold.
    expect(matchingPosts(broad[0]!).length).toBeGreaterThan(EXACT_COUNT_LIMIT);
  });

  it('returns the same pages as reading every post, for every filter and both orders', async () => {
    const { posts } = repos(engine);
    for (const [name, filter] of postFilters) {
      const truth = matchingPosts(post(filter)).map((p) => p.id);
      const recent = await posts.search(post({ ...filter, order: 'recent', offset: 30, limit: 50 }));
      expect(recent.ids, name).toEqual(truth.slice(30, 80));
    }
  });

  it('ranks the newest 200 matches by the index relevance rule, newest first among equals, and the older matches after them newest first', async () => {
    const { posts } = repos(engine);
    const terms = queryTerms('경험');
    const truth = matchingPosts(post({ terms }));
    const candidates = truth.slice(0, RELEVANCE_CANDIDATES);
    const expected = candidates.map((p, i) => ({ id: p.id, score: expectedRelevance(terms, p), i }))
      .sort((a, b) => b.score - a.score || a.i - b.i).map((p) => p.id);
    const older = truth.slice(RELEVANCE_CANDIDATES).map((p) => p.id);
    const page = async (offset: number, limit: number) => (await posts.search(post({ terms, offset, limit }))).ids;
    expect(await page(0, 50)).toEqual(expected.slice(0, 50));
    // A page across the boundary: the last ranked candidates, then the newest of the rest.
    expect(await page(190, 20)).toEqual([...expected.slice(190, 200), ...older.slice(0, 10)]);
    expect(await page(200, 20)).toEqual(older.slice(0, 20));
    // Repetition counts: the top post holds a term more than once, or is short.
    expect(new Set(expected.map((id) => Math.round(expectedRelevance(terms, truth.find((p) => p.id === id)!) * 1e6))).size).toBeGreaterThan(1);
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
