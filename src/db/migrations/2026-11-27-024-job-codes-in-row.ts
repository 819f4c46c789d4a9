import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * A job's seniorities and employment types move into its own row, a column each (shared/job-codes.ts:
 * the codes in catalog order, joined by commas), and the two tables that held them go. Every read of a job
 * (a detail, a page's items, a write's answer, the search index's documents) wants them with the row; the tables
 * cost a probe of an index each per job (on SQLite at a million posts, over a third of a page's items statement;
 * bench/results/performance-history.md). Nothing searched them: the search index holds each code's jobs.
 */
export function jobCodesInRow(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('jobs')
        .addColumn('seniorities', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('jobs')
        .addColumn('employment_types', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // Both engines order an aggregate's values inside it (SQLite since 3.44); catalog order is code_entries'.
      const codes = (table: string, column: string, catalog: string) => sql`COALESCE((
        SELECT ${adapter.name === 'postgres' ? sql`string_agg` : sql`group_concat`}(x.${sql.ref(column)}, ',' ORDER BY ce.position, x.${sql.ref(column)})
        FROM ${sql.table(table)} x LEFT JOIN code_entries ce ON ce.catalog = ${catalog} AND ce.code = x.${sql.ref(column)}
        WHERE x.job_id = jobs.id), '')`;
      // One UPDATE sets both, so PostgreSQL writes each row's new version once.
      await sql`UPDATE jobs SET seniorities = ${codes('job_seniorities', 'seniority', 'seniorities')},
        employment_types = ${codes('job_employment_types', 'employment_type', 'employment-types')}
        WHERE EXISTS (SELECT 1 FROM job_seniorities s WHERE s.job_id = jobs.id)
           OR EXISTS (SELECT 1 FROM job_employment_types e WHERE e.job_id = jobs.id)`.execute(db);
      await db.schema.dropTable('job_seniorities').execute();
      await db.schema.dropTable('job_employment_types').execute();
    },
  };
}
