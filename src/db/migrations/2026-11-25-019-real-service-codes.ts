import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { CATALOG_DATA, CATALOG_NAMES, LOCALES } from '../../shared/catalogs-2026-11-28.js';
import type { DB } from '../schema.js';

/**
 * The codes this service used before it took the real service's (docs/api.md, "Catalogs": the same table), and
 * what each stored value becomes. Frozen: it describes the data this migration finds, whatever the catalogs
 * become later. Two old codes may become one (a job that had both keeps one).
 */
export const CODE_RENAMES = {
  'job-categories': {
    SOFTWARE_ENGINEERING: 'dev',
    DATA_AI: 'dataAi',
    PRODUCT_MANAGEMENT: 'product',
    DESIGN: 'designUX',
    MARKETING: 'marketingPr',
    SALES: 'sales',
    FINANCE: 'finance',
    HUMAN_RESOURCES: 'hr',
    OPERATIONS: 'manage',
    CUSTOMER_SUCCESS: 'customerService',
    LEGAL: 'legal',
    MEDIA_CONTENT: 'media',
  },
  'employment-types': { CONTRACT: 'FIXED_TERM', PART_TIME: 'FIXED_TERM', FREELANCE: 'FREELANCER' },
  'job-industries': {
    FINANCE_FINTECH: 'FIN_FINTECH',
    COMMERCE_RETAIL: 'DIST_SALES',
    MANUFACTURING: 'MFG_ETC',
    HEALTHCARE: 'MEDICAL_BIO',
    EDUCATION: 'SERVICE_EDUCATION',
    MOBILITY_LOGISTICS: 'DIST_LOGISTICS',
  },
  'event-categories': { MEETUP: 'NETWORKING', WORKSHOP: 'CONFERENCE', WEBINAR: 'CONFERENCE', HIRING_EVENT: 'FAIR' },
  'event-subjects': {
    DEVELOPMENT: 'TECHNOLOGY',
    DATA: 'TECHNOLOGY',
    AI: 'TECHNOLOGY',
    DESIGN: 'PRODUCT',
    MARKETING: 'BUSINESS',
    CAREER: 'BUSINESS',
    STARTUP: 'BUSINESS',
    LEADERSHIP: 'BUSINESS',
  },
} as const satisfies Partial<Record<(typeof CATALOG_NAMES)[number], Record<string, string>>>;

/** Where each catalog's codes are stored: a column of one row per item, or a table of (item, code) pairs. */
const STORED = [
  { catalog: 'job-categories', table: 'jobs', column: 'job_category', key: null },
  { catalog: 'job-industries', table: 'companies', column: 'industry', key: null },
  { catalog: 'employment-types', table: 'job_employment_types', column: 'employment_type', key: 'job_id' },
  { catalog: 'event-categories', table: 'event_categories', column: 'category', key: 'event_id' },
  { catalog: 'event-subjects', table: 'event_subjects', column: 'subject', key: 'event_id' },
] as const;

/**
 * Every catalog and its labels, from the frozen copy of 2026-11-28, in place of what the database held (024 orders
 * a job's codes by them; 025 writes them again with groups and descriptions).
 */
export async function replaceCatalogs(db: Kysely<DB>): Promise<void> {
  await db.deleteFrom('code_labels').execute();
  await db.deleteFrom('code_entries').execute();
  for (const catalog of CATALOG_NAMES) {
    const entries = CATALOG_DATA[catalog];
    await db
      .insertInto('code_entries')
      .values(entries.map(([code], position) => ({ catalog, code, position })))
      .execute();
    await db
      .insertInto('code_labels')
      .values(
        entries.flatMap(([code, line]) => {
          const names = line.split('|');
          if (names.length !== LOCALES.length)
            throw new Error(`Catalog ${catalog} code ${code} has ${names.length} labels`);
          return LOCALES.map((locale, i) => ({ catalog, code, locale, display_name: names[i]! }));
        }),
      )
      .execute();
  }
}

/**
 * The real service's codes: its catalogs replace ours, and every stored code moves to its new value
 * (CODE_RENAMES). The search index copies instances saved hold facets of the old codes, so the index's epoch
 * changes (each instance rebuilds from the tables at its next start), and the data versions move, so that
 * nothing cached under the old codes is served again.
 */
export function realServiceCodes(): Migration {
  return {
    async up(anyDb: Kysely<unknown>) {
      const db = anyDb as unknown as Kysely<DB>;
      await replaceCatalogs(db);
      for (const { catalog, table, column, key } of STORED) {
        for (const [from, to] of Object.entries(CODE_RENAMES[catalog])) {
          if (key === null) {
            await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${to} WHERE ${sql.ref(column)} = ${from}`.execute(
              db,
            );
            continue;
          }
          await sql`INSERT INTO ${sql.table(table)} (${sql.ref(key)}, ${sql.ref(column)})
            SELECT ${sql.ref(key)}, ${to} FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${from} ON CONFLICT DO NOTHING`.execute(
            db,
          );
          await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${from}`.execute(db);
        }
      }
      await sql`UPDATE search_log_state SET value = ${randomBytes(16).toString('hex')} WHERE name = 'epoch'`.execute(
        db,
      );
      await sql`UPDATE data_version_slots SET version = version + 1`.execute(db);
    },
  };
}
