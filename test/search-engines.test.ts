import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { JobRepository, type JobSearchFilter } from '../src/modules/jobs/job-repository.js';
import { PostRepository, type PostSearchFilter } from '../src/modules/posts/post-repository.js';
import { queryTerms } from '../src/search/search-text.js';
import { TEST_NOW } from './helpers/test-app.js';
import { createTestDatabase, ENGINES, type Engine, type TestDatabase } from './helpers/test-database.js';

// Large enough that a table scan would be the obvious plan if no index fitted.
const SIZE = { posts: 3000, jobs: 2000, events: 10 };

const postFilters: Array<[string, Partial<PostSearchFilter>]> = [
  ['Korean bigram keyword', { terms: queryTerms('개발') }],
  ['Korean three-syllable keyword', { terms: queryTerms('개발자') }],
  ['single CJK character', { terms: queryTerms('발') }],
  ['English words', { terms: queryTerms('Kubernetes experience') }],
  ['Japanese keyword', { terms: queryTerms('東京') }],
  ['Chinese keyword', { terms: queryTerms('开发') }],
  ['keyword with images', { terms: queryTerms('회고'), hasImages: true }],
  ['company filter', { authorCompanyId: 1 }],
  ['Open Graph filter', { hasOg: true }],
  ['image filter', { hasImages: true }],
  ['newest first', { order: 'recent' }],
  ['time window', { postedAfter: TEST_NOW - 30 * 86_400_000, postedBefore: TEST_NOW - 10 * 86_400_000 }],
];

const jobFilters: Array<[string, Partial<JobSearchFilter>]> = [
  ['no filter', {}],
  ['English keyword', { terms: queryTerms('backend') }],
  ['Korean keyword', { terms: queryTerms('개발') }],
  ['three filters', { jobCategories: ['SOFTWARE_ENGINEERING', 'DATA_AI'], seniorities: ['SENIOR', 'JUNIOR'], workTypes: ['REMOTE', 'HYBRID'] }],
  ['company sizes and employment types', { companySizes: ['LARGE'], employmentTypes: ['FULL_TIME'] }],
  ['company', { companyId: 1 }],
];

const post = (f: Partial<PostSearchFilter>): PostSearchFilter => ({ terms: null, order: 'rank', limit: 100_000, offset: 0, ...f });
const job = (f: Partial<JobSearchFilter>): JobSearchFilter => ({ terms: null, now: TEST_NOW, order: 'rank', limit: 100_000, offset: 0, ...f });

const databases = new Map<Engine, TestDatabase>();

beforeAll(async () => {
  for (const engine of ENGINES) {
    const db = await createTestDatabase(engine);
    await generateDemoData(db.database, { now: TEST_NOW, ...SIZE });
    await db.database.db.executeQuery({ sql: 'ANALYZE', parameters: [], query: { kind: 'RawNode' } as never, queryId: { queryId: 'analyze' } });
    databases.set(engine, db);
  }
}, 240_000);

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

describe.skipIf(ENGINES.length < 2)('SQLite and PostgreSQL return the same results', () => {
  it.each(postFilters)('posts: %s', async (_name, filter) => {
    const [a, b] = await Promise.all(ENGINES.map((e) => repos(e).posts.search(post(filter))));
    expect(a!.total).toBeGreaterThan(0);
    expect(b!.total).toBe(a!.total);
    expect([...b!.ids].sort()).toEqual([...a!.ids].sort());
  });

  it.each(jobFilters)('jobs: %s', async (_name, filter) => {
    const [a, b] = await Promise.all(ENGINES.map((e) => repos(e).jobs.search(job(filter))));
    expect(a!.total).toBeGreaterThan(0);
    expect(b!.total).toBe(a!.total);
    expect([...b!.ids].sort()).toEqual([...a!.ids].sort());
  });

  it('orders non-keyword searches identically', async () => {
    const [a, b] = await Promise.all(ENGINES.map((e) => repos(e).posts.search(post({ order: 'recent', limit: 50, offset: 100 }))));
    expect(b!.ids).toEqual(a!.ids);
  });
});

/** Plan lines that read a whole table instead of an index. */
function tableScans(engine: Engine, plan: string[]): string[] {
  if (engine === 'sqlite') return plan.filter((line) => /^SCAN (posts|jobs|companies|job_\w+)$/.test(line.trim()));
  return plan.filter((line) => /Seq Scan on (posts|jobs|post_search|job_search)\b|Index Scan using \w+_pkey/.test(line));
}

/**
 * The plan of a query. On PostgreSQL a search over a small table is rightly planned as a sequential
 * scan, or as a walk of the whole primary key, so both are priced out (SET LOCAL enable_seqscan and
 * enable_indexscan = off): the plan left shows the index that serves each predicate, and a table scan
 * that remains means no index fits the query at all.
 */
async function planOf(engine: Engine, query: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
  const { database } = databases.get(engine)!;
  if (engine === 'sqlite') return database.adapter.explain(database.db, query.sql, query.parameters);
  return database.db.transaction().execute(async (trx) => {
    for (const setting of ['enable_seqscan', 'enable_indexscan']) {
      await trx.executeQuery({ sql: `SET LOCAL ${setting} = off`, parameters: [], query: { kind: 'RawNode' } as never, queryId: { queryId: 'set' } });
    }
    return database.adapter.explain(trx, query.sql, query.parameters);
  });
}

describe.each(ENGINES)('query plans on %s', (engine) => {
  it.each(postFilters)('post search and count use indexes: %s', async (_name, filter) => {
    const compiled = repos(engine).posts.compileSearch(post({ ...filter, limit: 20 }));
    for (const query of [compiled.page, compiled.count]) {
      const plan = await planOf(engine, query);
      expect(tableScans(engine, plan), plan.join('\n')).toEqual([]);
      if (filter.terms && engine === 'sqlite') {
        // The matches lead (one pass over the full-text index), never one index probe per post row.
        expect(plan[0], plan.join('\n')).toMatch(/^SCAN post_search VIRTUAL TABLE INDEX \d+:M/);
      }
      if (filter.terms && engine === 'postgres') expect(plan.join('\n')).toMatch(/post_search_document_gin/);
    }
  });

  it.each(jobFilters)('job search and count use indexes: %s', async (_name, filter) => {
    const compiled = repos(engine).jobs.compileSearch(job({ ...filter, limit: 20 }));
    for (const query of [compiled.page, compiled.count]) {
      const plan = await planOf(engine, query);
      expect(tableScans(engine, plan), plan.join('\n')).toEqual([]);
      if (filter.terms && engine === 'sqlite') {
        // The matches lead (one pass over the full-text index), never one index probe per job row.
        expect(plan[0], plan.join('\n')).toMatch(/^SCAN job_search VIRTUAL TABLE INDEX \d+:M/);
      }
      if (filter.terms && engine === 'postgres') expect(plan.join('\n')).toMatch(/job_search_document_gin/);
    }
  });
});
