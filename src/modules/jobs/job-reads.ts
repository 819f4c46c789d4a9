import type { ReadSql, ReadText } from '../../db/dialects/read-sql.js';
import type { JsonColumn } from '../posts/post-reads.js';
import { COMPANY_COLUMNS, type CompanyColumns } from './company-brief.js';
import { PLACE_AND_PAY_COLUMNS, type PlaceAndPayColumns } from './job-place-and-pay.js';

/**
 * A job as a search page shows it, from one statement: its row (its seniorities and employment types with it, as
 * job-codes.ts stores them), its company, and its title and subtitle translated into the asked language where a
 * translation exists.
 */
export interface JobItemRow extends CompanyColumns, PlaceAndPayColumns {
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
  'description',
  'duty',
  'minimum_qualification',
  'preferred_qualification',
  'benefit',
  'hire_process',
  'hire_notes',
] as const;
type JobText = (typeof JOB_TEXTS)[number];

/** A job as its detail shows it: also its long texts (translated where the translation exists), how to apply, its images. */
export type JobDetailRow = JobItemRow &
  Record<JobText | `t_${JobText}`, string | null> & {
    allow_remote: number;
    apply_type: string;
    apply_url: string | null;
    created_at: number;
    images: JsonColumn<string[]>;
  };

function columns(sql: ReadSql, withDetail: boolean): string {
  const texts = withDetail ? JOB_TEXTS : [];
  return `j.id, j.status, j.title, j.subtitle, j.job_category, j.work_type, j.language, j.start_at, j.end_at, j.seniorities, j.employment_types,
  ${PLACE_AND_PAY_COLUMNS.map((c) => `j.${c}`).join(', ')},
  ${COMPANY_COLUMNS},
  t.title AS t_title, t.subtitle AS t_subtitle${texts.map((text) => `, j.${text}, t.${text} AS t_${text}`).join('')}${
    withDetail
      ? `,
  j.allow_remote, j.apply_type, j.apply_url, j.created_at,
  (SELECT ${sql.jsonAgg('im.media_key', 'im.position')} FROM job_images im WHERE im.job_id = j.id) AS images`
      : ''
  }`;
}

const from = (language: string) => `JOIN companies c ON c.id = j.company_id
LEFT JOIN job_translations t ON t.job_id = j.id AND t.language = ${language} AND j.language <> ${language}`;

/** The jobs of ids, each wanted in a language, as search pages show them, or as details (prepared-reads.ts, ByLanguageRead). */
function statement(withDetail: boolean): ReadText {
  return (sql) => {
    const w = sql.wanted('jobs', 'j');
    return `${w.with}SELECT ${columns(sql, withDetail)}, ${w.language} AS wanted_language FROM ${w.from} ${from(w.language)}${w.where}`;
  };
}

/** The jobs of ids as search pages show them (any order; the caller puts them in the page's). */
export const JOB_ITEMS = statement(false);

/** The same as details. */
export const JOB_DETAILS = statement(true);
