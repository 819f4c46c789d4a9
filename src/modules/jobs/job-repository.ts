import type { Kysely } from 'kysely';
import type { ByLanguageRead, InLanguage, PreparedReads, Wanted } from '../../db/prepared-reads.js';
import type { DB } from '../../db/schema.js';
import { JOB_DETAILS, JOB_ITEMS, type JobDetailRow, type JobItemRow } from './job-reads.js';

/**
 * Reads of jobs for pages and details, as prepared statements (job-reads.ts); a company's managed list is built with
 * Kysely.
 */
export class JobRepository {
  private readonly itemReads: ByLanguageRead<JobItemRow>;
  private readonly detailReads: ByLanguageRead<JobDetailRow>;

  constructor(
    private readonly db: Kysely<DB>,
    reads: PreparedReads,
  ) {
    this.itemReads = reads.prepareByLanguage('job_items', JOB_ITEMS);
    this.detailReads = reads.prepareByLanguage('job_details', JOB_DETAILS);
  }

  /**
   * The jobs of `ids` that exist, in no particular order, translated into `language` where a translation exists
   * (null: none); on PostgreSQL read with the other pages of this turn of the event loop.
   */
  async items(ids: number[], language: string | null): Promise<JobItemRow[]> {
    return ids.length === 0 ? [] : this.itemReads.inTurn(ids, language);
  }

  /** The jobs `wanted` that exist, as details (long texts, how to apply, images), each in the language it was wanted in. */
  async details(wanted: Wanted[]): Promise<Array<InLanguage<JobDetailRow>>> {
    return wanted.length === 0 ? [] : this.detailReads.all(wanted);
  }

  /** The rows a company's managed list shows. */
  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('jobs')
      .select([
        'id',
        'status',
        'title',
        'subtitle',
        'job_category',
        'work_type',
        'start_at',
        'end_at',
        'seniorities',
        'employment_types',
      ])
      .where('id', 'in', ids)
      .execute();
  }
}
