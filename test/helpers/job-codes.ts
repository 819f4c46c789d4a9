import { sql } from 'kysely';

/**
 * Whether a job's row holds `code` in `column` (shared/job-codes.ts: the codes joined by commas), in SQL both
 * engines run: the tests' truths count rows with it, apart from the code that writes and reads the column.
 */
export const holdsCode = (column: 'jobs.seniorities' | 'jobs.employment_types', code: string) =>
  sql<boolean>`(',' || ${sql.ref(column)} || ',') LIKE ${`%,${code},%`}`;
