import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The columns a company read shows, with its description's translation into the asked language when there is one. */
const COLUMNS = [
  'companies.id',
  'companies.handle',
  'companies.name',
  'companies.logo_url',
  'companies.industry',
  'companies.industries',
  'companies.size',
  'companies.certificated',
  'companies.description',
  'companies.language',
  'companies.employee_count',
  'companies.founded_year',
  'companies.funding_stage',
  'companies.website',
  'companies.links',
  'companies.offices',
  'companies.location_country',
  'companies.location_region',
  'companies.location_locality',
  'companies.location_address',
  'companies.location_latitude',
  'companies.location_longitude',
  'companies.created_at',
  'companies.updated_at',
  't.description as t_description',
] as const;

/** The reads of companies: by id (a search's page) and by handle (a detail). */
export class CompanyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private select(language: string | null) {
    return this.db
      .selectFrom('companies')
      .leftJoin('company_translations as t', (join) =>
        join.onRef('t.company_id', '=', 'companies.id').on('t.language', '=', language ?? ''),
      )
      .select(COLUMNS);
  }

  /** The companies of `ids` that exist (in no order), with their translations into `language`. */
  items(ids: number[], language: string | null) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.select(language).where('companies.id', 'in', ids).execute();
  }

  /** The company of `handle`, with its translation into `language`; undefined when there is none. */
  byHandle(handle: string, language: string | null) {
    return this.select(language).where('companies.handle', '=', handle).executeTakeFirst();
  }
}

export type CompanyRow = Awaited<ReturnType<CompanyRepository['items']>>[number];
