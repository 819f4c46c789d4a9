import type { Kysely, Migration } from 'kysely';

/**
 * Where a job is and what it pays (docs/search.md "Where and how much"): nullable columns only, so instances of the
 * previous release, which neither read nor write them, keep running beside this one.
 */
export function jobLocationAndSalary(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const columns: Array<[string, 'text' | 'double precision']> = [
        ['location_country', 'text'],
        ['location_region', 'text'],
        ['location_locality', 'text'],
        ['location_address', 'text'],
        ['location_latitude', 'double precision'],
        ['location_longitude', 'double precision'],
        ['salary_min', 'double precision'],
        ['salary_max', 'double precision'],
        ['salary_currency', 'text'],
        ['salary_period', 'text'],
      ];
      for (const [name, type] of columns) await db.schema.alterTable('jobs').addColumn(name, type).execute();
    },
  };
}
