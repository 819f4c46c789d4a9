import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * The company directory (docs/companies.md): a company's description and its translations, every industry, size in
 * employees, founding year, funding stage, website, links, place and offices, and when it last changed. Added columns
 * are nullable or have defaults, so instances of the previous release, which neither read nor write them, keep
 * running beside this one. Company writes bump the `companies` data version and log changes in `search_changes`.
 */
export function companyDirectory(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const columns: Array<[string, 'text' | 'integer' | 'bigint' | 'double precision']> = [
        ['description', 'text'],
        ['language', 'text'],
        ['industries', 'text'],
        ['employee_count', 'integer'],
        ['founded_year', 'integer'],
        ['funding_stage', 'text'],
        ['website', 'text'],
        ['links', 'text'],
        ['offices', 'text'],
        ['location_country', 'text'],
        ['location_region', 'text'],
        ['location_locality', 'text'],
        ['location_address', 'text'],
        ['location_latitude', 'double precision'],
        ['location_longitude', 'double precision'],
        ['updated_at', 'bigint'],
      ];
      if (adapter.name === 'postgres') {
        // One statement (one lock of the table, one round trip); SQLite adds a column a statement.
        let alter = db.schema.alterTable('companies').addColumn(columns[0]![0], columns[0]![1]);
        for (const [name, type] of columns.slice(1)) alter = alter.addColumn(name, type);
        await alter.execute();
      } else {
        for (const [name, type] of columns) await db.schema.alterTable('companies').addColumn(name, type).execute();
      }
      // The company index reads the directory in creation order, a batch at a time (company-search-repository.ts).
      await db.schema.createIndex('companies_created').on('companies').columns(['created_at', 'id']).execute();
      await db.schema
        .createTable('company_translations')
        .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('company_translations_pk', ['company_id', 'language'])
        .execute();
      // As many slots as the other data versions have (migration 008).
      for (let slot = 0; slot < 16; slot++) {
        await sql`INSERT INTO data_version_slots (name, slot, version) VALUES ('companies', ${slot}, 0)`.execute(db);
      }
    },
  };
}
