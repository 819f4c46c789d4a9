import type { Selectable } from 'kysely';
import type { ReadText } from '../../db/dialects/read-sql.js';
import type { CompaniesTable } from '../../db/schema.js';

/** A company as its reads show it, with its description's translation into the asked language (null: none). */
export type CompanyRow = Selectable<CompaniesTable> & { t_description: string | null };

const COLUMNS = `co.id, co.handle, co.name, co.logo_url, co.industry, co.industries, co.size, co.certificated, co.description,
  co.language, co.employee_count, co.founded_year, co.funding_stage, co.website, co.links, co.offices, co.location_country,
  co.location_region, co.location_locality, co.location_address, co.location_latitude, co.location_longitude,
  co.created_at, co.updated_at, t.description AS t_description`;

const translation = (language: string) =>
  `LEFT JOIN company_translations t ON t.company_id = co.id AND t.language = ${language}`;

/** The companies of ids, each wanted in a language (prepared-reads.ts, ByLanguageRead): a search page's items. */
export const COMPANY_ITEMS: ReadText = (sql) => {
  const w = sql.wanted('companies', 'co');
  return `${w.with}SELECT ${COLUMNS}, ${w.language} AS wanted_language FROM ${w.from} ${translation(w.language)}${w.where}`;
};

/** The company of a handle (parameter 1) in a language (parameter 2, null: none): a detail. */
export const COMPANY_BY_HANDLE: ReadText = (sql) =>
  `SELECT ${COLUMNS} FROM companies co ${translation(sql.param(2))} WHERE co.handle = ${sql.param(1)}`;
