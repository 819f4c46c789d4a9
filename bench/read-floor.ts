/**
 * What a read costs at the floor, and what the service's own read costs, with no HTTP and no caches:
 *   npm run bench:read-floor -- [--db sqlite|postgres] [--reads 4000] [--only TEXT]
 * For random post and job ids (each read once, so no cache answers), CPU time per read of:
 *   - one row by primary key (the least a read can be);
 *   - the floor: one statement in which the engine builds the whole detail as JSON (author, images, card,
 *     stats, mentions, the repost one level and the translation; a job's company, codes, images, translation);
 *   - the service's statement (post-reads.ts / job-reads.ts), its rows as the service gets them (on SQLite built
 *     by db/sqlite-rows.ts from the driver's raw arrays);
 *   - the service's detail read in this process (PostService.detail / JobService.detail: the data version,
 *     the statement, the mapping to the response object), every cache missed;
 *   - a page of 50 random posts or jobs turned into items (the service's hydration, no cache): the worst case, each
 *     item at a random place of the file;
 *   - the page of 50 items of a distinct search of the realistic workload (bench/workload.ts: its keywords, filters,
 *     sorts and pages, every page 50 items), found by the service's own indexes and turned into items the same
 *     way: the pages searches ask for. The indexes load the saved copies `npm run bench` keeps beside the data;
 *   - the items statement alone for such pages (post_items / job_items: the rows as the service gets them).
 * `--only` runs only the variants whose name contains TEXT (to profile one: `node --cpu-prof --import tsx bench/read-floor.ts`).
 * The variants run interleaved in rounds, so a noisy machine affects them alike. On PostgreSQL the CPU is this
 * process's only (the server's is not counted); the wall time per read is printed beside it.
 * Uses the data set `npm run bench` generated (bench/data/bench-1000000-200000-20000-200000.sqlite, or the
 * PostgreSQL schema bench_1000000_200000_20000 of BENCH_DATABASE_URL), read into the page cache first as the
 * runner does (bench-data.ts).
 */
import { parseArgs } from 'node:util';
import { DataVersion } from '../src/cache/data-version.js';
import { loadConfig } from '../src/config.js';
import type { ReadText } from '../src/db/dialects/read-sql.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { CodeRepository } from '../src/modules/codes/code-repository.js';
import { CodeService } from '../src/modules/codes/code-service.js';
import { JOB_DETAILS } from '../src/modules/jobs/job-reads.js';
import { JobRepository } from '../src/modules/jobs/job-repository.js';
import { JobService } from '../src/modules/jobs/job-service.js';
import { POST_DETAILS } from '../src/modules/posts/post-reads.js';
import { PostRepository } from '../src/modules/posts/post-repository.js';
import { PostService } from '../src/modules/posts/post-service.js';
import { JobIndex } from '../src/modules/jobs/job-index.js';
import { PostIndex } from '../src/modules/posts/post-index.js';
import { SeededRandom } from '../src/demo/random.js';
import { Links } from '../src/shared/links.js';
import { benchDataInPageCache, benchIndexCopy, openBenchData } from './bench-data.js';
import { realisticWorkload } from './realistic.js';
import { jobFilterOf, postFilterOf } from './workload-filters.js';

/** The floor of a post detail: the engine builds the whole body. Parameters: the id, the language. */
const POST_FLOOR: ReadText = (() => {
  const body = (o: string, agg: string, language: string) => `${o}(
    'postId', p.id,
    'author', ${o}('type', p.author_type, 'id', coalesce(c.handle, u.handle), 'name', coalesce(c.name, u.name),
      'imageUrl', coalesce(c.logo_url, u.image_url), 'certificated', coalesce(c.certificated, u.certificated)),
    'content', coalesce(t.content, p.content),
    'images', (SELECT ${agg}(${o}('id', i.id, 'key', i.media_key, 'width', i.width, 'height', i.height) ORDER BY i.position) FROM post_images i WHERE i.post_id = p.id),
    'og', CASE WHEN o.post_id IS NULL THEN NULL ELSE ${o}('link', o.link, 'title', o.title, 'source', o.source, 'image', o.image, 'description', o.description) END,
    'stats', ${o}('likeCount', p.like_count, 'commentCount', p.comment_count),
    'postedAt', p.posted_at, 'updatedAt', p.updated_at, 'language', p.language,
    'mentions', (SELECT ${agg}(${o}('type', m.mention_type, 'id', m.handle, 'name', m.name) ORDER BY m.position) FROM post_mentions m WHERE m.post_id = p.id),
    'repostedPost', (SELECT ${o}('postId', s.id, 'content', s.content, 'postedAt', s.posted_at, 'authorId', coalesce(sc.handle, su.handle),
        'authorName', coalesce(sc.name, su.name), 'likeCount', s.like_count)
      FROM posts s LEFT JOIN users su ON su.id = s.author_user_id LEFT JOIN companies sc ON sc.id = s.author_company_id WHERE s.id = p.reposted_post_id)
  ) AS body
  FROM posts p LEFT JOIN users u ON u.id = p.author_user_id LEFT JOIN companies c ON c.id = p.author_company_id
  LEFT JOIN post_translations t ON t.post_id = p.id AND t.language = ${language} AND p.language <> ${language}
  LEFT JOIN post_og_cards o ON o.post_id = p.id`;
  return (sql) => `SELECT ${body(sql.json.object, sql.json.agg, sql.param(2))} WHERE p.id = ${sql.param(1)}`;
})();

/** The floor of a job detail. */
const JOB_FLOOR: ReadText = (() => {
  const texts = [
    'title',
    'subtitle',
    'description',
    'duty',
    'minimum_qualification',
    'preferred_qualification',
    'benefit',
    'hire_process',
    'hire_notes',
  ];
  const body = (o: string, agg: string, language: string) => `${o}(
    'jobId', j.id, 'status', j.status, 'jobCategory', j.job_category, 'workType', j.work_type, 'allowRemote', j.allow_remote,
    'startAt', j.start_at, 'endAt', j.end_at, 'createdAt', j.created_at, 'applyType', j.apply_type, 'applyUrl', j.apply_url,
    ${texts.map((text) => `'${text}', coalesce(t.${text}, j.${text})`).join(', ')},
    'company', ${o}('name', c.name, 'id', c.handle, 'logoUrl', c.logo_url, 'industry', c.industry, 'size', c.size),
    'seniorities', j.seniorities, 'employmentTypes', j.employment_types,
    'jobImages', (SELECT ${agg}(im.media_key ORDER BY im.position) FROM job_images im WHERE im.job_id = j.id)
  ) AS body
  FROM jobs j JOIN companies c ON c.id = j.company_id
  LEFT JOIN job_translations t ON t.job_id = j.id AND t.language = ${language} AND j.language <> ${language}`;
  return (sql) => `SELECT ${body(sql.json.object, sql.json.agg, sql.param(2))} WHERE j.id = ${sql.param(1)}`;
})();

const PK: Record<'posts' | 'jobs', ReadText> = {
  posts: (sql) => `SELECT * FROM posts WHERE id = ${sql.param(1)}`,
  jobs: (sql) => `SELECT * FROM jobs WHERE id = ${sql.param(1)}`,
};

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    reads: { type: 'string', default: '4000' },
    only: { type: 'string' },
  },
});
const database = openBenchData(values.db!);
await benchDataInPageCache(database);
const reads = Number(values.reads);
const config = loadConfig({});
const clock = Date.now;
const links = new Links(config.webBaseUrl, config.publicBaseUrl);
const accounts = new AccountsRepository(database.db, clock);
const codes = new CodeService(new CodeRepository(database.db));
await codes.load();
const versions = { posts: new DataVersion(database.reads, 'posts'), jobs: new DataVersion(database.reads, 'jobs') };
// The indexes give the pages of the workload's searches: loaded from the copies `npm run bench` saved (built from
// the tables when there are none, ~2 minutes at 1M), before anything is timed.
const postIndex = new PostIndex(database, versions.posts, benchIndexCopy(values.db!, 'posts.idx'));
const jobIndex = new JobIndex(database, versions.jobs, benchIndexCopy(values.db!, 'jobs.idx'));
await Promise.all([postIndex.ready(), jobIndex.ready()]);
const postRepository = new PostRepository(database.reads);
const posts = new PostService(postRepository, postIndex, accounts, links, config.serviceTimeZone);
const jobRepository = new JobRepository(database.db, database.reads);
const jobs = new JobService(jobRepository, jobIndex, accounts, codes, links, clock);

const count = async (table: 'posts' | 'jobs') =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirstOrThrow()
    ).max,
  );
const maxId = { posts: await count('posts'), jobs: await count('jobs') };
const rnd = new SeededRandom(11);
const LANGUAGES = ['ko', 'en', 'ja'] as const;
const randomIds = (table: 'posts' | 'jobs', n: number) => Array.from({ length: n }, () => rnd.int(1, maxId[table]));

interface Variant {
  name: string;
  table: 'posts' | 'jobs';
  perCall: number;
  searched?: boolean;
  run(ids: number[], language: (typeof LANGUAGES)[number]): Promise<unknown>;
}
const statement = (name: string, sql: ReadText) => database.reads.prepare<unknown>(name, sql);
const pk = { posts: statement('floor_pk_posts', PK.posts), jobs: statement('floor_pk_jobs', PK.jobs) };
const postFloor = statement('floor_post', POST_FLOOR);
const jobFloor = statement('floor_job', JOB_FLOOR);
const postDetails = statement('floor_post_details', POST_DETAILS);
const jobDetails = statement('floor_job_details', JOB_DETAILS);
// The service's statements take the ids and one language on SQLite, the ids and each one's language on PostgreSQL.
const byLanguage = (id: number, language: string) => (values.db === 'postgres' ? [[id], [language]] : [[id], language]);
const ignoreNotFound = (err: unknown) => {
  if ((err as { statusCode?: number }).statusCode !== 404) throw err;
};
// The services' hydration of a page is private to them; the benchmark calls it by name, with no version (no cache).
type Hydrating = { hydrate(ids: number[], ...rest: unknown[]): Promise<unknown[]> };
let unusedVersion = 0;

const workload = await realisticWorkload(database);
/** The ids of `count` full pages of 50 of the workload's distinct searches (a search with fewer matches is drawn again). */
async function searchPages(table: 'posts' | 'jobs', count: number): Promise<number[][]> {
  const pages: number[][] = [];
  while (pages.length < count) {
    let ids: number[] = [];
    if (table === 'posts') {
      const filter = await postFilterOf(workload.postSearch(), config.serviceTimeZone, accounts, 50);
      if (filter) ({ ids } = await postIndex.search(filter));
    } else {
      const filter = await jobFilterOf(workload.jobSearch(), clock(), accounts, 50);
      if (filter) ({ ids } = await jobIndex.search(filter));
    }
    if (ids.length === 50) pages.push(ids);
  }
  return pages;
}

const VARIANTS: Variant[] = [
  { name: 'post: one row by primary key', table: 'posts', perCall: 1, run: ([id]) => pk.posts.all([id]) },
  {
    name: 'post: floor, one statement building the JSON',
    table: 'posts',
    perCall: 1,
    run: ([id], language) => postFloor.all([id, language]),
  },
  {
    name: "post: the service's statement (post_details)",
    table: 'posts',
    perCall: 1,
    run: ([id], language) => postDetails.all(byLanguage(id!, language)),
  },
  {
    name: "post: the service's detail read (PostService.detail)",
    table: 'posts',
    perCall: 1,
    run: async ([id], language) => posts.detail(id!, null, language, await versions.posts.read()).catch(ignoreNotFound),
  },
  {
    name: "post: a page of 50 items (the service's hydration)",
    table: 'posts',
    perCall: 50,
    run: (ids, language) => (posts as unknown as Hydrating).hydrate(ids, null, language, null),
  },
  {
    name: "post: a distinct search's page of 50 items (the service's hydration)",
    table: 'posts',
    perCall: 50,
    searched: true,
    run: (ids, language) => (posts as unknown as Hydrating).hydrate(ids, null, language, null),
  },
  {
    name: "post: distinct search pages of 50, the service's items statement alone (post_items)",
    table: 'posts',
    perCall: 50,
    searched: true,
    run: (ids, language) => postRepository.items(ids, language),
  },
  { name: 'job: one row by primary key', table: 'jobs', perCall: 1, run: ([id]) => pk.jobs.all([id]) },
  {
    name: 'job: floor, one statement building the JSON',
    table: 'jobs',
    perCall: 1,
    run: ([id], language) => jobFloor.all([id, language]),
  },
  {
    name: "job: the service's statement (job_details)",
    table: 'jobs',
    perCall: 1,
    run: ([id], language) => jobDetails.all(byLanguage(id!, language)),
  },
  {
    name: "job: the service's detail read (JobService.detail)",
    table: 'jobs',
    perCall: 1,
    run: async ([id], language) => jobs.detail(id!, language, await versions.jobs.read()).catch(ignoreNotFound),
  },
  // A version never used before: the job item cache misses every id.
  {
    name: "job: a page of 50 items (the service's hydration)",
    table: 'jobs',
    perCall: 50,
    run: (ids, language) => (jobs as unknown as Hydrating).hydrate(ids, language, -++unusedVersion),
  },
  {
    name: "job: a distinct search's page of 50 items (the service's hydration)",
    table: 'jobs',
    perCall: 50,
    searched: true,
    run: (ids, language) => (jobs as unknown as Hydrating).hydrate(ids, language, -++unusedVersion),
  },
  {
    name: "job: distinct search pages of 50, the service's items statement alone (job_items)",
    table: 'jobs',
    perCall: 50,
    searched: true,
    run: (ids, language) => jobRepository.items(ids, language),
  },
];

const ROUNDS = 8;
const totals = new Map<string, { cpuUs: number; wallMs: number; calls: number }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of VARIANTS.filter(({ name }) => values.only === undefined || name.includes(values.only))) {
    const calls = Math.max(1, Math.round(reads / ROUNDS / (variant.perCall === 1 ? 1 : 10)));
    const batches = variant.searched
      ? await searchPages(variant.table, calls)
      : Array.from({ length: calls }, () => randomIds(variant.table, variant.perCall));
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    for (const [i, ids] of batches.entries()) await variant.run(ids, LANGUAGES[i % LANGUAGES.length]!);
    const cpu = process.cpuUsage(cpuBefore);
    const total = totals.get(variant.name) ?? { cpuUs: 0, wallMs: 0, calls: 0 };
    total.cpuUs += cpu.user + cpu.system;
    total.wallMs += performance.now() - wallBefore;
    total.calls += calls;
    totals.set(variant.name, total);
  }
}

console.log(
  `\n${values.db}, ${maxId.posts.toLocaleString('en')} posts / ${maxId.jobs.toLocaleString('en')} jobs, random ids (or search pages), each read once, ${ROUNDS} interleaved rounds\n`,
);
console.log('| read | reads (pages) | CPU µs per read (page) | wall µs per read (page) |');
console.log('|---|---:|---:|---:|');
for (const [name, { cpuUs, wallMs, calls }] of totals) {
  console.log(
    `| ${name} | ${calls.toLocaleString('en')} | ${(cpuUs / calls).toFixed(0)} | ${((wallMs * 1000) / calls).toFixed(0)} |`,
  );
}
await Promise.all([postIndex.close(), jobIndex.close()]);
await database.close();
