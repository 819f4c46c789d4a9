import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchData } from '../bench/generate-data.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { JobIndex, type JobSearchFilter } from '../src/modules/jobs/job-index.js';
import { PostIndex, RELEVANCE_CANDIDATES, type PostSearchFilter } from '../src/modules/posts/post-index.js';
import { TIERS } from '../src/search/occurrence-tiers.js';
import { FACETS } from '../src/search/fields.js';
import { isHiring, jobDocumentParts, jobTexts, jobTokens } from '../src/modules/jobs/job-document.js';
import { PLACE_AND_PAY_COLUMNS } from '../src/modules/jobs/job-place-and-pay.js';
import { initialLetters, onlyConsonants, typedLetters } from '../src/search/hangul.js';
import { postTokens } from '../src/modules/posts/post-document.js';
import { queryTerms, queryWords, type QueryWord } from '../src/search/search-text.js';
import { textbookDistance } from './helpers/edit-distance.js';
import { holdsCode } from './helpers/job-codes.js';
import { TEST_NOW } from './helpers/test-app.js';
import { createTestDatabase, ENGINES, type Engine, type TestDatabase } from './helpers/test-database.js';

// The demo data plus enough generated posts that broad keywords match well over 10,000 of them.
const DEMO = { posts: 3000, jobs: 2400, events: 10 };
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
  [
    'keyword in a time window, newest first',
    { terms: queryTerms('경험'), postedAfter: TEST_NOW - 60 * 86_400_000, order: 'recent' },
  ],
];

const jobFilters: Array<[string, Partial<JobSearchFilter>]> = [
  ['no filter', {}],
  ['English keyword', { terms: queryTerms('backend') }],
  ['Korean keyword', { terms: queryTerms('개발') }],
  [
    'three filters',
    { jobCategories: ['dev', 'dataAi'], seniorities: ['SENIOR', 'JUNIOR'], workTypes: ['REMOTE', 'HYBRID'] },
  ],
  ['company sizes and employment types', { companySizes: ['LARGE'], employmentTypes: ['FULL_TIME'] }],
  ['company', { companyId: 1 }],
  ['newest start first', { order: 'date' }],
  ['most viewed first', { order: 'popularity', seniorities: ['JUNIOR'] }],
  ['countries', { countries: ['JP', 'US'] }],
  ['regions of a country', { countries: ['KR'], regions: ['서울', '경기'] }],
  ['near 강남, 10 km', { near: { latitude: 37.4979, longitude: 127.0276, radiusKm: 10, includeRemote: false } }],
  [
    'near 강남, 3 km, remote too',
    { near: { latitude: 37.4979, longitude: 127.0276, radiusKm: 3, includeRemote: true } },
  ],
  [
    'near 부산, 50 km, a keyword',
    { terms: queryTerms('개발'), near: { latitude: 35.16, longitude: 129.1, radiusKm: 50, includeRemote: false } },
  ],
  ['near Tokyo, 500 km', { near: { latitude: 35.68, longitude: 139.76, radiusKm: 500, includeRemote: false } }],
  ['near the antimeridian, 300 km', { near: { latitude: 0, longitude: 179.9, radiusKm: 300, includeRemote: true } }],
  ['salary at least 60M KRW a year', { salary: { currency: 'KRW', min: 60_000_000, includeUnstated: false } }],
  ['salary from at most 45M KRW, or unstated', { salary: { currency: 'KRW', max: 45_000_000, includeUnstated: true } }],
  ['salary 40M-80M KRW', { salary: { currency: 'KRW', min: 40_000_000, max: 80_000_000, includeUnstated: false } }],
  ['salary in JPY, any amount', { salary: { currency: 'JPY', includeUnstated: false } }],
  [
    'near 판교, salary at least 50M KRW, most viewed',
    {
      order: 'popularity',
      near: { latitude: 37.3948, longitude: 127.1112, radiusKm: 20, includeRemote: false },
      salary: { currency: 'KRW', min: 50_000_000, includeUnstated: false },
    },
  ],
];

const post = (f: Partial<PostSearchFilter>): PostSearchFilter => ({
  terms: null,
  order: 'rank',
  limit: 100,
  offset: 0,
  ...f,
});
const job = (f: Partial<JobSearchFilter>): JobSearchFilter => ({
  terms: null,
  now: TEST_NOW,
  order: 'rank',
  limit: 100,
  offset: 0,
  ...f,
});

const databases = new Map<Engine, TestDatabase>();
const postIndexes = new Map<Engine, PostIndex>();
const jobIndexes = new Map<Engine, JobIndex>();

beforeAll(async () => {
  for (const engine of ENGINES) {
    const db = await createTestDatabase(engine);
    await generateDemoData(db.database, { now: TEST_NOW, ...DEMO });
    await generateBenchData(db.database, { posts: GENERATED_POSTS, jobs: 0, events: 0 }, 7, TEST_NOW);
    databases.set(engine, db);
    const index = new PostIndex(db.database);
    const jobIndex = new JobIndex(db.database);
    await Promise.all([index.ready(), jobIndex.ready()]);
    postIndexes.set(engine, index);
    jobIndexes.set(engine, jobIndex);
  }
  truths = await postTruths(databases.get(ENGINES[0]!)!);
  jobTruths = await readJobTruths(databases.get(ENGINES[0]!)!);
}, 300_000);

afterAll(async () => {
  for (const db of databases.values()) {
    await db.database.close();
    await db.drop();
  }
});

const repos = (engine: Engine) => {
  const { database } = databases.get(engine)!;
  return { database, posts: postIndexes.get(engine)!, jobs: jobIndexes.get(engine)! };
};

/**
 * Every post with its tokens and texts, read and tokenized here, apart from the index: what a filter matches
 * and how relevance scores it are computed from this, row by row, as the truth the index is held to.
 */
interface PostTruth {
  id: number;
  postedAt: number;
  tokens: Map<string, number>;
  length: number;
}
let truths: PostTruth[] = [];

async function postTruths(test: TestDatabase): Promise<PostTruth[]> {
  const db = test.database.db;
  const rows = await db
    .selectFrom('posts')
    .select(['id', 'content', 'image_count', 'has_og', 'author_company_id', 'posted_at'])
    .execute();
  const translations = await db.selectFrom('post_translations').select(['post_id', 'content']).execute();
  const byPost = new Map<number, Array<string | null>>();
  for (const t of translations) byPost.set(t.post_id, [...(byPost.get(t.post_id) ?? []), t.content]);
  return rows.map((row) => {
    const own = byPost.get(row.id) ?? [];
    const tokens = new Map<string, number>();
    for (const token of postTokens(row, own)) tokens.set(token, (tokens.get(token) ?? 0) + 1);
    const length = [row.content, ...own].reduce(
      (n, text) => n + (text ? text.normalize('NFKC').toLowerCase().length : 0),
      0,
    );
    return { id: row.id, postedAt: Number(row.posted_at), tokens, length };
  });
}

/** The posts a filter matches, newest first, by reading every post's tokens. */
function matchingPosts(filter: PostSearchFilter): PostTruth[] {
  return truths
    .filter(
      (p) =>
        (filter.terms ?? []).every((term) => p.tokens.has(term)) &&
        (filter.authorCompanyId === undefined || p.tokens.has(FACETS.company(filter.authorCompanyId))) &&
        (filter.hasImages === undefined || p.tokens.has(FACETS.postImages) === filter.hasImages) &&
        (filter.hasOg === undefined || p.tokens.has(FACETS.postOg) === filter.hasOg) &&
        (filter.postedAfter === undefined || p.postedAt >= filter.postedAfter) &&
        (filter.postedBefore === undefined || p.postedAt <= filter.postedBefore),
    )
    .sort((a, b) => b.postedAt - a.postedAt || b.id - a.id);
}

/**
 * The typo rule of docs/search.md, from a post's own tokens: a spaced word matches itself, or a word of the post of
 * the same first letter within 1 edit (5+ letters) or 2 (9+); a Korean word of 3+ syllables also matches when the
 * post holds every bigram of it with one syllable changed by one typed letter.
 */
function matchesWithTypos(word: QueryWord, p: PostTruth, similar: string[][]): boolean {
  return word.terms.every((t) => p.tokens.has(t)) || similar.some((terms) => terms.every((t) => p.tokens.has(t)));
}

let vocabulary: Set<string> | undefined;

/**
 * The terms of each word a keyword's word may have meant, from every token any post holds: for a spaced word, the
 * words of the same first letter within its edits; for a Korean word, the words with one syllable changed by one
 * typed letter (their bigrams).
 */
function similarWords(word: QueryWord): string[][] {
  vocabulary ??= new Set(truths.flatMap((p) => [...p.tokens.keys()]));
  const letters = [...word.text];
  if (!word.cjk) {
    const edits = letters.length >= 9 ? 2 : letters.length >= 5 ? 1 : 0;
    if (edits === 0) return [];
    return [...vocabulary]
      .filter(
        (token) =>
          [...token][0] === letters[0] &&
          token !== word.text &&
          /^[\p{L}\p{N}\p{M}]+$/u.test(token) &&
          !/[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(token) &&
          textbookDistance(letters, [...token]) <= edits,
      )
      .map((t) => [t]);
  }
  if (letters.length < 3 || !letters.every((c) => c >= '가' && c <= '힣')) return [];
  const syllables = [...vocabulary].filter((t) => t.length === 1 && t >= '가' && t <= '힣');
  return letters.flatMap((_, i) =>
    syllables.flatMap((x) => {
      const changed = [...letters.slice(0, i), x, ...letters.slice(i + 1)];
      return textbookDistance([...typedLetters(word.text)], [...typedLetters(changed.join(''))]) === 1
        ? [changed.slice(0, -1).map((c, k) => c + changed[k + 1]!)]
        : [];
    }),
  );
}

/** The relevance rule of docs/search.md, computed from a post's own tokens. */
function expectedRelevance(terms: string[], post: PostTruth): number {
  let score = 0;
  for (const term of terms) {
    const n = post.tokens.get(term) ?? 0;
    const tier = n === 0 ? 0 : ([...TIERS].reverse().find((least) => n >= least) ?? 1);
    score += Math.log1p(tier);
  }
  return score / Math.log(Math.E + post.length / 500);
}

/** Every published job with its recruiting window, views and tokens, read and tokenized here apart from the index. */
interface JobTruth {
  id: number;
  start: number;
  end: number | null;
  views: number;
  tokens: Map<string, number>;
  length: number;
  country: string | null;
  region: string | null;
  remote: boolean;
  point: { latitude: number; longitude: number } | null;
  currency: string | null;
  yearly: [number, number] | null;
  /** What suggestions offer from it: `TYPE text`. */
  suggested: Set<string>;
}
let jobTruths: JobTruth[] = [];

async function readJobTruths(test: TestDatabase): Promise<JobTruth[]> {
  const db = test.database.db;
  const rows = await db
    .selectFrom('jobs')
    .innerJoin('companies', 'companies.id', 'jobs.company_id')
    .select([
      'jobs.id',
      'jobs.title',
      'jobs.subtitle',
      'jobs.description',
      'jobs.status',
      'jobs.job_category',
      'jobs.work_type',
      'jobs.company_id',
      'companies.size as company_size',
      'companies.name as company_name',
      'jobs.start_at',
      'jobs.end_at',
      'jobs.view_count',
      'jobs.seniorities',
      'jobs.employment_types',
      ...PLACE_AND_PAY_COLUMNS.map((c) => `jobs.${c}` as const),
    ])
    .where('jobs.status', '=', 'published')
    .execute();
  const parts = await jobDocumentParts(
    db,
    rows.map((r) => r.id),
  );
  return rows
    .filter((job) => job.start_at !== null)
    .map((job) => {
      const tokens = new Map<string, number>();
      for (const token of jobTokens(job, parts)) tokens.set(token, (tokens.get(token) ?? 0) + 1);
      const length = jobTexts(job, parts).reduce((n, text) => n + text.normalize('NFKC').toLowerCase().length, 0);
      // The place and pay from the row itself, by their rule, not from the index's tokens for them.
      const per = { YEAR: 1, MONTH: 12, HOUR: 2080 }[job.salary_period ?? 'YEAR']!;
      const [min, max] = [job.salary_min, job.salary_max].map((n) => (n === null ? null : Number(n) * per));
      return {
        id: job.id,
        start: Number(job.start_at),
        end: job.end_at === null ? null : Number(job.end_at),
        views: job.view_count,
        tokens,
        length,
        country: job.location_country,
        region: job.location_region,
        remote: job.work_type === 'REMOTE',
        point:
          job.location_latitude === null
            ? null
            : { latitude: Number(job.location_latitude), longitude: Number(job.location_longitude) },
        currency: job.salary_currency,
        yearly: job.salary_currency === null ? null : [min ?? max!, max ?? min!],
        suggested: suggestedOf(
          job.title,
          (parts.translations.get(job.id) ?? []).map((t) => t.title),
          job.company_name,
        ),
      };
    });
}

/** The jobs hiring at `filter.now` that a filter matches, newest recruiting start first. */
function matchingJobs(filter: JobSearchFilter): JobTruth[] {
  const anyOf = (values: string[] | undefined, token: (v: string) => string, job: JobTruth) =>
    !values?.length || values.some((v) => job.tokens.has(token(v)));
  return jobTruths
    .filter(
      (j) =>
        isHiring({ status: 'published', start_at: j.start, end_at: j.end }, filter.now) &&
        (filter.terms ?? []).every((term) => j.tokens.has(term)) &&
        (filter.companyId === undefined || j.tokens.has(FACETS.company(filter.companyId))) &&
        anyOf(filter.jobCategories, FACETS.jobCategory, j) &&
        anyOf(filter.seniorities, FACETS.seniority, j) &&
        anyOf(filter.employmentTypes, FACETS.employmentType, j) &&
        anyOf(filter.companySizes, FACETS.companySize, j) &&
        anyOf(filter.workTypes, FACETS.workType, j) &&
        (!filter.countries?.length || filter.countries.includes(j.country!)) &&
        (!filter.regions?.length || filter.regions.includes(j.region!)) &&
        nearBy(filter.near, j) &&
        paying(filter.salary, j),
    )
    .sort((a, b) => b.start - a.start || b.id - a.id);
}

/** A job's titles as written (spaces collapsed), its company's name, and its titles' words of two letters or more, lower-cased. */
function suggestedOf(title: string, translated: string[], company: string): Set<string> {
  const titles = [title, ...translated].map((t) => t.trim().replace(/\s+/g, ' '));
  const words = titles.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => [...w].length >= 2);
  return new Set([...titles.map((t) => `TITLE ${t}`), `COMPANY ${company}`, ...words.map((w) => `KEYWORD ${w}`)]);
}

/** The suggestion rule: every offer beginning with the prefix as typed (or by initial consonants), counted among the jobs hiring now. */
function expectedSuggestions(prefix: string, limit: number): Array<{ text: string; type: string; count: number }> {
  const typed = typedLetters(prefix);
  const initials = onlyConsonants(prefix) ? initialLetters(prefix).replace(/\s+/g, '') : null;
  const counts = new Map<string, number>();
  for (const j of jobTruths) {
    if (!isHiring({ status: 'published', start_at: j.start, end_at: j.end }, TEST_NOW)) continue;
    for (const offer of j.suggested) {
      const text = offer.slice(offer.indexOf(' ') + 1);
      if (
        typedLetters(text).startsWith(typed) ||
        (initials !== null && initialLetters(text).replace(/\s+/g, '').startsWith(initials))
      ) {
        counts.set(offer, (counts.get(offer) ?? 0) + 1);
      }
    }
  }
  return [...counts]
    .map(([offer, count]) => ({
      type: offer.slice(0, offer.indexOf(' ')),
      text: offer.slice(offer.indexOf(' ') + 1),
      count,
    }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
    )
    .slice(0, limit);
}

/** The radius rule, by the haversine distance of the job's own coordinates. */
function nearBy(near: JobSearchFilter['near'], j: JobTruth): boolean {
  if (!near) return true;
  if (j.remote) return near.includeRemote;
  if (!j.point) return false;
  const rad = Math.PI / 180;
  const h =
    Math.sin(((j.point.latitude - near.latitude) * rad) / 2) ** 2 +
    Math.cos(near.latitude * rad) *
      Math.cos(j.point.latitude * rad) *
      Math.sin(((j.point.longitude - near.longitude) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h)) <= near.radiusKm;
}

/** The salary rule: stated in the currency, its yearly most reaching `min`, its yearly least no more than `max`. */
function paying(salary: JobSearchFilter['salary'], j: JobTruth): boolean {
  if (!salary) return true;
  if (j.yearly === null) return salary.includeUnstated;
  return (
    j.currency === salary.currency &&
    (salary.min === undefined || j.yearly[1] >= salary.min) &&
    (salary.max === undefined || j.yearly[0] <= salary.max)
  );
}

describe.each(ENGINES)('search rules on %s', (engine) => {
  it('counts and pages every job filter exactly as reading every job does, among the jobs hiring at the moment', async () => {
    const { jobs } = repos(engine);
    for (const [name, filter] of jobFilters) {
      const truth = matchingJobs(job(filter));
      expect(truth.length, name).toBeGreaterThan(5);
      const result = await jobs.search(
        job({ ...filter, order: filter.order === 'popularity' ? 'popularity' : 'date', offset: 5, limit: 40 }),
      );
      expect(result.total, name).toBe(truth.length);
      const ordered =
        filter.order === 'popularity' ? [...truth].sort((a, b) => b.views - a.views || b.id - a.id) : truth;
      expect(result.ids, name).toEqual(ordered.slice(5, 45).map((j) => j.id));
    }
  });

  it('suggests what hiring jobs hold for a prefix as typed, counted and ordered as reading every job does', async () => {
    const { jobs } = repos(engine);
    const prefixes = [
      '백',
      '배ㄱ',
      '백엔드개발자 (',
      'ㅂㅇㄷ',
      'ㅍ',
      'ㅍㄹ',
      '프로덕트',
      '데이터엔지니어 (s',
      'b',
      'BACKEND D',
      'p',
      'a',
      'Ac',
      '노바',
      'ㄴㅂ',
      'ㅎㅂ',
      'バック',
      '后端',
      'go',
      'zz',
    ];
    for (const prefix of prefixes) {
      const expected = expectedSuggestions(prefix, 10);
      if (prefix !== 'zz') expect(expected.length, prefix).toBeGreaterThan(0);
      const found = await jobs.suggest(prefix, 10, TEST_NOW);
      expect(found.items, prefix).toEqual(expected);
    }
  });

  it('opens and closes recruiting windows with the clock alone, forward and back, without a write', async () => {
    const { jobs } = repos(engine);
    const starts = jobTruths
      .map((j) => j.start)
      .filter((t) => t > TEST_NOW)
      .sort((a, b) => a - b);
    const ends = jobTruths.flatMap((j) => (j.end !== null && j.end > TEST_NOW ? [j.end] : [])).sort((a, b) => a - b);
    expect(starts.length).toBeGreaterThan(0);
    expect(ends.length).toBeGreaterThan(0);
    const moments = [
      TEST_NOW,
      starts[0]!,
      ends[0]!,
      ends[0]! - 1,
      TEST_NOW + 400 * 86_400_000,
      TEST_NOW - 400 * 86_400_000,
      TEST_NOW,
    ];
    for (const now of moments) {
      const truth = matchingJobs(job({ now }));
      const result = await jobs.search(job({ now, order: 'date', limit: 30 }));
      expect(result.total, new Date(now).toISOString()).toBe(truth.length);
      expect(result.ids).toEqual(truth.slice(0, 30).map((j) => j.id));
      // Until the next start or end after `now`, the result holds.
      const next = Math.min(...jobTruths.flatMap((j) => [j.start, j.end ?? Infinity]).filter((t) => t > now));
      expect(result.validUntil).toBe(next);
    }
  });

  it("works out the jobs hiring at the service clock's moment when it gets ready: the first search there reuses it", async () => {
    const fresh = new JobIndex(databases.get(engine)!.database, undefined, null, () => TEST_NOW);
    try {
      await fresh.ready();
      type Internals = { live: { current(): Promise<object> }; ordersOf(docs: object): { hiring?: { docs: unknown } } };
      const internals = fresh as unknown as Internals;
      const orders = internals.ordersOf(await internals.live.current());
      const worked = orders.hiring?.docs;
      expect(worked).toBeDefined();
      const result = await fresh.search(job({ order: 'date', limit: 10 }));
      expect(result.total).toBe(matchingJobs(job({})).length);
      expect(orders.hiring?.docs).toBe(worked);
    } finally {
      await fresh.close();
    }
  });

  it('ranks the newest 200 matching jobs by the index relevance rule, like posts', async () => {
    const { jobs } = repos(engine);
    const terms = queryTerms('개발');
    const truth = matchingJobs(job({ terms }));
    expect(truth.length).toBeGreaterThan(RELEVANCE_CANDIDATES);
    const score = (j: JobTruth) =>
      expectedRelevance(terms, { id: j.id, postedAt: j.start, tokens: j.tokens, length: j.length });
    const expected = truth
      .slice(0, RELEVANCE_CANDIDATES)
      .map((j, i) => ({ id: j.id, score: score(j), i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((j) => j.id);
    expect((await jobs.search(job({ terms, limit: 50 }))).ids).toEqual(expected.slice(0, 50));
    expect((await jobs.search(job({ terms, offset: 200, limit: 10 }))).ids).toEqual(
      truth.slice(200, 210).map((j) => j.id),
    );
  });

  it('matches misspelt keywords by the typo rule, post by post, exact matches first, counted exactly', async () => {
    const { posts } = repos(engine);
    for (const keyword of [
      'experence',
      'kubernets',
      'retrospectve',
      'expirience team',
      '개발쟈',
      '습니댜',
      '회고 습니댜',
    ]) {
      const words = queryWords(keyword);
      const terms = queryTerms(keyword);
      const similar = words.map(similarWords);
      const truth = truths
        .filter((p) => words.every((w, i) => matchesWithTypos(w, p, similar[i]!)))
        .sort((a, b) => b.postedAt - a.postedAt || b.id - a.id);
      const exact = matchingPosts(post({ terms }));
      const recent = await posts.search(post({ terms, typoWords: words, order: 'recent', limit: 60 }));
      expect(recent.total, keyword).toBe(truth.length);
      expect(recent.ids, keyword).toEqual(truth.slice(0, 60).map((p) => p.id));
      const ranked = await posts.search(post({ terms, typoWords: words, limit: 100 }));
      const exactIds = new Set(exact.map((p) => p.id));
      const firstOthers = ranked.ids.findIndex((id) => !exactIds.has(id));
      expect(firstOthers === -1 ? ranked.ids.length : firstOthers, keyword).toBe(Math.min(100, exact.length));
      expect(truth.length, keyword).toBeGreaterThan(exact.length);
    }
  });

  it('counts every filter exactly, however many posts match', async () => {
    const { posts } = repos(engine);
    const broad = [['다'], ['를'], ['습니다'], ['이 다']].map(([keyword]) => post({ terms: queryTerms(keyword!) }));
    for (const filter of [
      ...postFilters.map(([, f]) => post(f)),
      ...broad,
      post({ terms: queryTerms('다'), hasImages: false }),
    ]) {
      const truth = matchingPosts(filter);
      expect((await posts.search(filter)).total, JSON.stringify(filter)).toBe(truth.length);
    }
    // The broad ones are far above the old estimate threshold.
    expect(matchingPosts(broad[0]!).length).toBeGreaterThan(10_000);
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
    const expected = candidates
      .map((p, i) => ({ id: p.id, score: expectedRelevance(terms, p), i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((p) => p.id);
    const older = truth.slice(RELEVANCE_CANDIDATES).map((p) => p.id);
    const page = async (offset: number, limit: number) => (await posts.search(post({ terms, offset, limit }))).ids;
    expect(await page(0, 50)).toEqual(expected.slice(0, 50));
    // A page across the boundary: the last ranked candidates, then the newest of the rest.
    expect(await page(190, 20)).toEqual([...expected.slice(190, 200), ...older.slice(0, 10)]);
    expect(await page(200, 20)).toEqual(older.slice(0, 20));
    // Repetition counts: the top post holds a term more than once, or is short.
    expect(
      new Set(expected.map((id) => Math.round(expectedRelevance(terms, truth.find((p) => p.id === id)!) * 1e6))).size,
    ).toBeGreaterThan(1);
  });

  it('orders POPULARITY_DESC and DATE_DESC as the jobs table does, among the hiring jobs that match', async () => {
    const { jobs, database } = repos(engine);
    const filter = job({ seniorities: ['JUNIOR', 'SENIOR'], limit: 60, offset: 20 });
    const hiring = database.db
      .selectFrom('jobs')
      .select('jobs.id')
      .where('jobs.status', '=', 'published')
      .where('jobs.start_at', '<=', TEST_NOW)
      .where((eb) => eb.or([eb('jobs.end_at', 'is', null), eb('jobs.end_at', '>', TEST_NOW)]))
      .where((eb) => eb.or([holdsCode('jobs.seniorities', 'JUNIOR'), holdsCode('jobs.seniorities', 'SENIOR')]));
    const byViews = await hiring
      .orderBy('jobs.view_count', 'desc')
      .orderBy('jobs.id', 'desc')
      .limit(60)
      .offset(20)
      .execute();
    expect((await jobs.search({ ...filter, order: 'popularity' })).ids).toEqual(byViews.map((r) => r.id));
    const byStart = await hiring
      .orderBy('jobs.start_at', 'desc')
      .orderBy('jobs.id', 'desc')
      .limit(60)
      .offset(20)
      .execute();
    expect((await jobs.search({ ...filter, order: 'date' })).ids).toEqual(byStart.map((r) => r.id));
  });

  it('orders RECENT by posting time, and a time window keeps exactly the posts posted within it', async () => {
    const { posts, database } = repos(engine);
    const after = TEST_NOW - 40 * 86_400_000;
    const before = TEST_NOW - 5 * 86_400_000;
    const { ids, total } = await posts.search(
      post({ order: 'recent', postedAfter: after, postedBefore: before, limit: 50 }),
    );
    const truth = await database.db
      .selectFrom('posts')
      .select('id')
      .where('posted_at', '>=', after)
      .where('posted_at', '<=', before)
      .orderBy('posted_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
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
