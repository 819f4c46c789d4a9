import type { Selectable } from 'kysely';
import type { ReadText } from '../../db/dialects/read-sql.js';
import type { CompaniesTable } from '../../db/schema.js';
import type { LocationColumn } from '../jobs/job-place-and-pay.js';

/** A company as a search page shows it, with its description's translation into the asked language (null: none). */
export type CompanySummaryRow = Pick<
  Selectable<CompaniesTable>,
  | 'id'
  | 'handle'
  | 'name'
  | 'logo_url'
  | 'industry'
  | 'size'
  | 'certificated'
  | 'description'
  | 'employee_count'
  | 'founded_year'
  | 'funding_stage'
  | 'website'
  | LocationColumn
> & { t_description: string | null };

/** A company as its detail shows it: every column. */
export type CompanyRow = Selectable<CompaniesTable> & { t_description: string | null };

/** What a search page's item shows: no more, since a page reads dozens of rows. */
const SUMMARY_COLUMNS = `co.id, co.handle, co.name, co.logo_url, co.industry, co.size, co.certificated, co.description,
  co.employee_count, co.founded_year, co.funding_stage, co.website, co.location_country, co.location_region,
  co.location_locality, co.location_address, co.location_latitude, co.location_longitude, t.description AS t_description`;

const COLUMNS = `${SUMMARY_COLUMNS}, co.industries, co.language, co.links, co.offices, co.created_at, co.updated_at`;

const translation = (language: string) =>
  `LEFT JOIN company_translations t ON t.company_id = co.id AND t.language = ${language}`;

/** The companies of ids, each wanted in a language (prepared-reads.ts, ByLanguageRead): a search page's items. */
export const COMPANY_ITEMS: ReadText = (sql) => {
  const w = sql.wanted('companies', 'co');
  return `${w.with}SELECT ${SUMMARY_COLUMNS}, ${w.language} AS wanted_language FROM ${w.from} ${translation(w.language)}${w.where}`;
};

/** The company of a handle (parameter 1) in a language (parameter 2, null: none): a detail. */
export const COMPANY_BY_HANDLE: ReadText = (sql) =>
  `SELECT ${COLUMNS} FROM companies co ${translation(sql.param(2))} WHERE co.handle = ${sql.param(1)}`;
