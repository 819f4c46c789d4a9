/**
 * What the full-text indexes hold for each post and job: the tokens of its texts (original and
 * translations) and facet tokens for every property a search filters on, so that a filtered search is
 * answered from the index alone, on both engines, without reading a row per match.
 *
 * Posts are searched in the service's own index (post-index.ts), built from their tokens here. Only hiring jobs are
 * in the job index (a sweep adds and removes them as their recruiting windows open and close), under a key
 * that orders them by recruiting start, the DATE_DESC order.
 */
import type { Kysely } from 'kysely';
import type { DialectAdapter } from '../db/dialects/dialect-adapter.js';
import type { DB } from '../db/schema.js';
import { groupBy } from '../shared/group.js';
import { facet, textTokens } from './search-text.js';

/** Posts posted in the same millisecond are told apart by their id modulo this. */
export const KEY_SPREAD = 1024;

/** The search key of a post in the engines' full-text tables, before post search moved to post-index.ts (kept for the 2026-11-22 migration). */
export const postSearchKey = (postedAt: number, id: number): number => postedAt * KEY_SPREAD + (id % KEY_SPREAD);

/**
 * The search key of a hiring job: recruiting start (to the second) first, so keys sort as DATE_DESC does.
 * Recruiting starts at the start of a day, so many jobs share one start: the id part has room for a million.
 */
export const jobSearchKey = (startAt: number, id: number): number => Math.floor(startAt / 1000) * 2 ** 20 + (id % 2 ** 20);

/** The key of a hiring job in the popularity index: views first, so keys sort as POPULARITY_DESC does. */
export const jobPopularityKey = (views: number, id: number): number => Math.min(views, 2 ** 32) * 2 ** 20 + (id % 2 ** 20);

/** The job indexes: the same documents under two orders (recruiting start, views), each key kept in its column. */
const JOB_INDEXES = [
  { index: 'job_search', column: 'search_key', key: (job: { start_at: number | null; view_count: number; id: number }) => jobSearchKey(job.start_at!, job.id) },
  { index: 'job_search_popular', column: 'popularity_key', key: (job: { start_at: number | null; view_count: number; id: number }) => jobPopularityKey(job.view_count, job.id) },
] as const;

export const FACETS = {
  /** Every document: the positive part of a search that only excludes. */
  all: facet('a'),
  postImages: facet('i'),
  postOg: facet('o'),
  company: (id: number) => facet(`c${id}`),
  jobCategory: (code: string) => facet(`k${code}`),
  seniority: (code: string) => facet(`s${code}`),
  employmentType: (code: string) => facet(`e${code}`),
  companySize: (code: string) => facet(`z${code}`),
  workType: (code: string) => facet(`w${code}`),
};

export interface PostFacts { content: string | null; image_count: number; has_og: number; author_company_id: number | null }

/** The tokens of a post: its texts' (search-text.ts), then a facet token for each property a search filters on. */
export function postTokens(post: PostFacts, translations: Array<string | null>): string[] {
  const tokens = textTokens(post.content, ...translations);
  tokens.push(FACETS.all);
  if (post.image_count > 0) tokens.push(FACETS.postImages);
  if (post.has_og) tokens.push(FACETS.postOg);
  if (post.author_company_id !== null) tokens.push(FACETS.company(post.author_company_id));
  return tokens;
}

/** A post's tokens as the engines' full-text tables held them (the 2026-11-22 migration fills the table it still makes). */
export function postDocument(post: PostFacts, translations: Array<string | null>): string {
  return postTokens(post, translations).join(' ');
}

export interface JobFacts {
  title: string; subtitle: string; description: string; status: string; job_category: string; work_type: string;
  company_id: number; company_size: string; start_at: number | null; end_at: number | null;
}

/** DECISIONS.md: a job is hiring when published, started, and not ended. */
export const isHiring = (job: Pick<JobFacts, 'status' | 'start_at' | 'end_at'>, now: number): boolean =>
  job.status === 'published' && job.start_at !== null && job.start_at <= now && (job.end_at === null || job.end_at > now);

/** What a job document holds besides the job's row: its seniorities, employment types and translated texts. */
export interface JobDocumentParts {
  seniorities: Map<number, string[]>;
  employmentTypes: Map<number, string[]>;
  translations: Map<number, Array<{ title: string; subtitle: string; description: string }>>;
}

export async function jobDocumentParts(db: Kysely<DB>, ids: number[]): Promise<JobDocumentParts> {
  const [seniorities, types, translations] = await Promise.all([
    db.selectFrom('job_seniorities').select(['job_id', 'seniority']).where('job_id', 'in', ids).execute(),
    db.selectFrom('job_employment_types').select(['job_id', 'employment_type']).where('job_id', 'in', ids).execute(),
    db.selectFrom('job_translations').select(['job_id', 'title', 'subtitle', 'description']).where('job_id', 'in', ids).execute(),
  ]);
  const values = <R extends { job_id: number }, V>(rows: R[], value: (row: R) => V) =>
    new Map([...groupBy(rows, (r) => r.job_id)].map(([id, group]) => [id, group.map(value)]));
  return {
    seniorities: values(seniorities, (r) => r.seniority),
    employmentTypes: values(types, (r) => r.employment_type),
    translations: values(translations, (r) => r),
  };
}

/** The texts of a job that search matches: title, subtitle, description, and those of its translations. */
export function jobTexts(job: Pick<JobFacts, 'title' | 'subtitle' | 'description'> & { id: number }, parts: JobDocumentParts): string[] {
  const translations = parts.translations.get(job.id) ?? [];
  return [job.title, job.subtitle, job.description, ...translations.flatMap((t) => [t.title, t.subtitle, t.description])];
}

/** The tokens of a job: its texts', then a facet token for each property a search filters on. */
export function jobTokens(job: JobFacts & { id: number }, parts: JobDocumentParts): string[] {
  const tokens = textTokens(...jobTexts(job, parts));
  tokens.push(FACETS.all, FACETS.jobCategory(job.job_category), FACETS.workType(job.work_type), FACETS.company(job.company_id), FACETS.companySize(job.company_size));
  for (const s of parts.seniorities.get(job.id) ?? []) tokens.push(FACETS.seniority(s));
  for (const e of parts.employmentTypes.get(job.id) ?? []) tokens.push(FACETS.employmentType(e));
  return tokens;
}

export function jobDocument(job: JobFacts & { id: number }, parts: JobDocumentParts): string {
  return jobTokens(job, parts).join(' ');
}

/**
 * Brings each job of `ids` into the index state it has at `now`: a hiring job indexed under its key (moved
 * when its start changed), any other job out of the index.
 */
export async function reindexJobs(db: Kysely<DB>, adapter: DialectAdapter, ids: number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.selectFrom('jobs').innerJoin('companies', 'companies.id', 'jobs.company_id')
    .select(['jobs.id', 'jobs.title', 'jobs.subtitle', 'jobs.description', 'jobs.status', 'jobs.job_category', 'jobs.work_type',
      'jobs.company_id', 'companies.size as company_size', 'jobs.start_at', 'jobs.end_at', 'jobs.view_count', 'jobs.search_key', 'jobs.popularity_key'])
    .where('jobs.id', 'in', ids).execute();
  const parts = await jobDocumentParts(db, ids);
  for (const job of rows) {
    const hiring = isHiring(job, now);
    const document = hiring ? jobDocument(job, parts) : null;
    for (const { index, column, key: keyOf } of JOB_INDEXES) {
      const old = job[column];
      const key = hiring ? keyOf(job) : null;
      if (old !== null && old !== key) await adapter.deleteSearchDocument(db, index, old);
      if (old !== key) await db.updateTable('jobs').set({ [column]: key }).where('id', '=', job.id).execute();
      if (key !== null) await adapter.writeSearchDocument(db, index, key, document!);
    }
  }
}
