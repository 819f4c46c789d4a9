/** What the job index (job-index.ts) holds for each job: its texts and translations, and a facet token per filter. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { FACETS } from '../../search/fields.js';
import type { SearchDocument } from '../../search/posting-index.js';
import { textTokens } from '../../search/search-text.js';
import { groupBy } from '../../shared/group.js';
import { jobCodesOf } from '../../shared/job-codes.js';

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

/** A job as the index takes it: its texts, and a facet token for each property a search filters on. */
export function jobDocument(job: JobFacts & { id: number }, parts: JobDocumentParts): SearchDocument {
  const facets = [FACETS.jobCategory(job.job_category), FACETS.workType(job.work_type), FACETS.company(job.company_id), FACETS.companySize(job.company_size)];
  const codes = jobCodesOf(job);
  for (const s of codes.seniorities) facets.push(FACETS.seniority(s));
  for (const e of codes.employmentTypes) facets.push(FACETS.employmentType(e));
  return { texts: jobTexts(job, parts), facets };
}

/** The tokens the index holds for a job (its texts' tokens, then its facets), as strings. */
export function jobTokens(job: JobFacts & { id: number }, parts: JobDocumentParts): string[] {
  const { texts, facets } = jobDocument(job, parts);
  return [...textTokens(...texts), ...facets];
}
