/**
 * What the search indexes (post-index.ts, job-index.ts) hold for each post and job: the tokens of its texts
 * (original and translations) and facet tokens for every property a search filters on, so that a filtered
 * search is answered from the index alone, without reading a row per match.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { groupBy } from '../shared/group.js';
import { jobCodesOf } from '../shared/job-codes.js';
import { facet, textTokens } from './search-text.js';

/** The facet kinds (search-text.ts `facet`): one letter each, the start of every token of that facet. */
export const FACET_KIND = {
  postImages: 'i', postOg: 'o', company: 'c', jobCategory: 'k', seniority: 's', employmentType: 'e', companySize: 'z', workType: 'w',
} as const;

export const FACETS = {
  postImages: facet(FACET_KIND.postImages),
  postOg: facet(FACET_KIND.postOg),
  company: (id: number) => facet(FACET_KIND.company, String(id)),
  jobCategory: (code: string) => facet(FACET_KIND.jobCategory, code),
  seniority: (code: string) => facet(FACET_KIND.seniority, code),
  employmentType: (code: string) => facet(FACET_KIND.employmentType, code),
  companySize: (code: string) => facet(FACET_KIND.companySize, code),
  workType: (code: string) => facet(FACET_KIND.workType, code),
};

export interface PostFacts { content: string | null; image_count: number; has_og: number; author_company_id: number | null }

/** The tokens of a post: its texts' (search-text.ts), then a facet token for each property a search filters on. */
export function postTokens(post: PostFacts, translations: Array<string | null>): string[] {
  const tokens = textTokens(post.content, ...translations);
  if (post.image_count > 0) tokens.push(FACETS.postImages);
  if (post.has_og) tokens.push(FACETS.postOg);
  if (post.author_company_id !== null) tokens.push(FACETS.company(post.author_company_id));
  return tokens;
}

export interface JobFacts {
  title: string; subtitle: string; description: string; status: string; job_category: string; work_type: string;
  company_id: number; company_size: string; start_at: number | null; end_at: number | null;
  /** The job's codes as its row keeps them (shared/job-codes.ts). */
  seniorities: string; employment_types: string;
}

/** docs/decisions.md: a job is hiring when published, started, and not ended. */
export const isHiring = (job: Pick<JobFacts, 'status' | 'start_at' | 'end_at'>, now: number): boolean =>
  job.status === 'published' && job.start_at !== null && job.start_at <= now && (job.end_at === null || job.end_at > now);

/** What a job document holds besides the job's row: its translated texts. */
export interface JobDocumentParts {
  translations: Map<number, Array<{ title: string; subtitle: string; description: string }>>;
}

export async function jobDocumentParts(db: Kysely<DB>, ids: number[]): Promise<JobDocumentParts> {
  const translations = await db.selectFrom('job_translations').select(['job_id', 'title', 'subtitle', 'description']).where('job_id', 'in', ids).execute();
  return { translations: groupBy(translations, (r) => r.job_id) };
}

/** The texts of a job that search matches: title, subtitle, description, and those of its translations. */
export function jobTexts(job: Pick<JobFacts, 'title' | 'subtitle' | 'description'> & { id: number }, parts: JobDocumentParts): string[] {
  const translations = parts.translations.get(job.id) ?? [];
  return [job.title, job.subtitle, job.description, ...translations.flatMap((t) => [t.title, t.subtitle, t.description])];
}

/** The tokens of a job: its texts', then a facet token for each property a search filters on. */
export function jobTokens(job: JobFacts & { id: number }, parts: JobDocumentParts): string[] {
  const tokens = textTokens(...jobTexts(job, parts));
  tokens.push(FACETS.jobCategory(job.job_category), FACETS.workType(job.work_type), FACETS.company(job.company_id), FACETS.companySize(job.company_size));
  const codes = jobCodesOf(job);
  for (const s of codes.seniorities) tokens.push(FACETS.seniority(s));
  for (const e of codes.employmentTypes) tokens.push(FACETS.employmentType(e));
  return tokens;
}
