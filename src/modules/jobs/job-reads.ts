import type { EngineSql } from '../../db/prepared-reads.js';
import type { JsonColumn } from '../posts/post-reads.js';
import { COMPANY_COLUMNS, type CompanyColumns } from './company-brief.js';

/**
 * A job as a search page shows it, from one statement: its row (its seniorities and employment types with it, as
 * job-codes.ts stores them), its company, and its title and subtitle translated into the asked language where a
 * translation exists.
 */
export interface JobItemRow extends CompanyColumns {
  id: number;
  status: string;
  title: string;
  subtitle: string;
  job_category: string;
  work_type: string;
  language: string;
  start_at: number | null;
  end_at: number | null;
  seniorities: string;
  employment_types: string;
  /** The translation's title; null when the job has none in the asked language (the rest of it is then null too). */
  t_title: string | null;
  t_subtitle: string | null;
}

/** The long texts of a job, as stored and as translated. */
export const JOB_TEXTS = [
  'description', 'duty', 'minimum_qualification', 'preferred_qualification', 'benefit', 'hire_process', 'hire_notes',
] as const;
type JobText = (typeof JOB_TEXTS)[number];

/** A job as its detail shows it: also its long texts (translated where the translation exists), how to apply, its images. */
export type JobDetailRow = JobItemRow & Record<JobText | `t_${JobText}`, string | null> & {
  allow_remote: number;
  apply_type: string;
  apply_url: string | null;
  created_at: number;
  images: JsonColumn<string[]>;
};

function columns(json: { agg: string }, withDetail: boolean): string {
  const texts = withDetail ? JOB_TEXTS : [];
  return `j.id, j.status, j.title, j.subtitle, j.job_category, j.work_type, j.language, j.start_at, j.end_at, j.seniorities, j.employment_types,
  ${COMPANY_COLUMNS},
  t.title AS t_title, t.subtitle AS t_subtitle${texts.map((text) => `, j.${text}, t.${text} AS t_${text}`).join('')}${withDetail ? `,
  j.allow_remote, j.apply_type, j.apply_url, j.created_at,
  (SELECT ${json.agg}(im.media_key ORDER BY im.position) FROM job_images im WHERE im.job_id = j.id) AS images` : ''}`;
}

const from = (language: string) => `JOIN companies c ON c.id = j.company_id
LEFT JOIN job_translations t ON t.job_id = j.id AND t.language = ${language} AND j.language <> ${language}`;

/**
 * The jobs of ids, each in a language (any order; the caller puts them in the page's): on SQLite the ids of one
 * language (`?1`, `?2`), on PostgreSQL pairs of ids and languages (prepared-reads.ts, ByLanguageRead).
 */
export const JOB_ITEMS: EngineSql = {
  sqlite: `SELECT ${columns({ agg: 'json_group_array' }, false)}, ?2 AS wanted_language FROM jobs j ${from('?2')} WHERE j.id IN (SELECT value FROM json_each(?1))`,
  postgres: `SELECT ${columns({ agg: 'json_agg' }, false)}, w.language AS wanted_language
FROM unnest($1::int8[], $2::text[]) AS w(id, language) JOIN jobs j ON j.id = w.id ${from('w.language')}`,
};

/** The same as details, in the same forms. */
export const JOB_DETAILS: EngineSql = {
  sqlite: `SELECT ${columns({ agg: 'json_group_array' }, true)}, ?2 AS wanted_language FROM jobs j ${from('?2')} WHERE j.id IN (SELECT value FROM json_each(?1))`,
  postgres: `SELECT ${columns({ agg: 'json_agg' }, true)}, w.language AS wanted_language
FROM unnest($1::int8[], $2::text[]) AS w(id, language) JOIN jobs j ON j.id = w.id ${from('w.language')}`,
};
