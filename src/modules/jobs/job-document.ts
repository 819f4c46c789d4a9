/** What the job index (job-index.ts) holds for each job: its texts and translations, and a facet token per filter. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { FACETS } from '../../search/fields.js';
import type { SearchDocument } from '../../search/posting-index.js';
import { textTokens } from '../../search/search-text.js';
import { groupBy } from '../../shared/group.js';
import { jobCodesOf } from '../../shared/job-codes.js';
import { cellsOf } from '../../search/geo-cells.js';
import { bucketOf, rangeOf } from '../../search/number-buckets.js';
import { yearlyRange, type PlaceAndPayColumns } from './job-place-and-pay.js';

export interface JobFacts extends PlaceAndPayColumns {
  title: string;
  subtitle: string;
  description: string;
  status: string;
  job_category: string;
  work_type: string;
  company_id: number;
  company_size: string;
  company_name: string;
  start_at: number | null;
  end_at: number | null;
  /** The job's codes as its row keeps them (shared/job-codes.ts). */
  seniorities: string;
  employment_types: string;
}

/** docs/decisions.md: a job is hiring when published, started, and not ended. */
export const isHiring = (job: Pick<JobFacts, 'status' | 'start_at' | 'end_at'>, now: number): boolean =>
  job.status === 'published' &&
  job.start_at !== null &&
  job.start_at <= now &&
  (job.end_at === null || job.end_at > now);

/** What a job document holds besides the job's row: its translated texts. */
export interface JobDocumentParts {
  translations: Map<number, Array<{ title: string; subtitle: string; description: string }>>;
}

export async function jobDocumentParts(db: Kysely<DB>, ids: number[]): Promise<JobDocumentParts> {
  const translations = await db
    .selectFrom('job_translations')
    .select(['job_id', 'title', 'subtitle', 'description'])
    .where('job_id', 'in', ids)
    .execute();
  return { translations: groupBy(translations, (r) => r.job_id) };
}

/** The texts of a job that search matches: title, subtitle, description, and those of its translations. */
export function jobTexts(
  job: Pick<JobFacts, 'title' | 'subtitle' | 'description'> & { id: number },
  parts: JobDocumentParts,
): string[] {
  const translations = parts.translations.get(job.id) ?? [];
  return [
    job.title,
    job.subtitle,
    job.description,
    ...translations.flatMap((t) => [t.title, t.subtitle, t.description]),
  ];
}

/** A job as the index takes it: its texts, and a facet token for each property a search filters on. */
export function jobDocument(job: JobFacts & { id: number }, parts: JobDocumentParts): SearchDocument {
  const facets = [
    FACETS.jobCategory(job.job_category),
    FACETS.workType(job.work_type),
    FACETS.company(job.company_id),
    FACETS.companySize(job.company_size),
  ];
  const codes = jobCodesOf(job);
  for (const s of codes.seniorities) facets.push(FACETS.seniority(s));
  for (const e of codes.employmentTypes) facets.push(FACETS.employmentType(e));
  facets.push(...placeAndPayTokens(job), ...suggestedTokens(job, parts));
  return { texts: jobTexts(job, parts), facets };
}

/**
 * What the suggestions of a half-typed search (job-suggestions.ts) offer from a job: its titles (its own and its
 * translations'), its company's name, and the words of its titles (two letters or more, lower-cased).
 */
function suggestedTokens(
  job: Pick<JobFacts, 'title' | 'company_name'> & { id: number },
  parts: JobDocumentParts,
): string[] {
  const titles = [job.title, ...(parts.translations.get(job.id) ?? []).map((t) => t.title)]
    .map((t) => t.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
  const words = titles
    .flatMap((title) => title.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    .filter((word) => [...word].length >= 2);
  return [
    ...new Set([...titles.map(FACETS.title), FACETS.companyName(job.company_name), ...words.map(FACETS.titleWord)]),
  ];
}

/**
 * The tokens of a job's place (country, region, a grid cell per size) and pay (its currency, the buckets of its
 * yearly least and most, the range of its most), or that it states no pay.
 */
function placeAndPayTokens(job: PlaceAndPayColumns): string[] {
  const tokens: string[] = [];
  if (job.location_country !== null) tokens.push(FACETS.country(job.location_country));
  if (job.location_region !== null) tokens.push(FACETS.region(job.location_region));
  const point = coordinatesOf(job);
  if (point) tokens.push(...cellsOf(point).map(FACETS.cell));
  const yearly = yearlyRange(job);
  if (yearly === null) return [...tokens, FACETS.payUnstated];
  const currency = job.salary_currency!;
  tokens.push(
    FACETS.payCurrency(currency),
    FACETS.payLow(currency, bucketOf(yearly[0])),
    FACETS.payHigh(currency, bucketOf(yearly[1])),
    FACETS.payRange(currency, rangeOf(yearly[1])),
  );
  return tokens;
}

/** A job's coordinates; null when its place has none. */
export function coordinatesOf(
  job: Pick<PlaceAndPayColumns, 'location_latitude' | 'location_longitude'>,
): { latitude: number; longitude: number } | null {
  return job.location_latitude === null || job.location_longitude === null
    ? null
    : { latitude: Number(job.location_latitude), longitude: Number(job.location_longitude) };
}

/** The tokens the index holds for a job (its texts' tokens, then its facets), as strings. */
export function jobTokens(job: JobFacts & { id: number }, parts: JobDocumentParts): string[] {
  const { texts, facets } = jobDocument(job, parts);
  return [...textTokens(...texts), ...facets];
}
