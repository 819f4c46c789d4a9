import { type Insertable, type Kysely, type Updateable } from 'kysely';
import type { DB, JobsTable } from '../../db/schema.js';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import type { ChangeType } from '../../change-feed/change-log.js';
import { recordCreated } from '../../db/idempotency.js';
import { sendLater } from '../../db/sent-later.js';
import { inTransaction, writeTransaction, type WriteUnit } from '../../writes/write-unit.js';

/** The rows of a job's own tables a write gives (seniorities and employment types are columns of its row). */
export interface JobChildren {
  settings?: Array<{ type?: string; title?: string | null; required?: boolean; uploadType?: string }>;
  imageKeys?: string[];
}

/** The statuses the public API shows a job in (a draft and a deleted job are 404). */
const PUBLIC_STATUSES = new Set(['published', 'finish']);

/** The SQL of writing jobs; used inside one transaction per request, whose unit records each write's effects. */
export class JobWriteRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed?: Pick<ChangeFeed, 'publish'>,
    private readonly unit?: WriteUnit,
  ) {}

  /** Runs `work` in one transaction; the change it recorded for the feed is completed right after the commit. */
  transaction<T>(work: (repository: JobWriteRepository) => Promise<T>): Promise<T> {
    return writeTransaction(this.db, this.feed, (unit) => new JobWriteRepository(unit.db, undefined, unit), work);
  }

  /** The job's status before a write, and its company, for the change the write records. */
  private async before(id: number) {
    return this.db.selectFrom('jobs').select(['status', 'company_id']).where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** The job with its company's handle, and what a write's answer shows of it. */
  async find(id: number) {
    return (
      (await this.db
        .selectFrom('jobs')
        .innerJoin('companies', 'companies.id', 'jobs.company_id')
        .select([
          'jobs.id',
          'jobs.company_id',
          'jobs.job_type',
          'jobs.status',
          'companies.handle as company_handle',
          'jobs.title',
          'jobs.subtitle',
          'jobs.job_category',
          'jobs.work_type',
          'jobs.start_at',
          'jobs.end_at',
          'jobs.seniorities',
          'jobs.employment_types',
        ])
        .where('jobs.id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  async insert(values: Insertable<JobsTable>, children: JobChildren): Promise<number> {
    const { id } = await this.db.insertInto('jobs').values(values).returning('id').executeTakeFirstOrThrow();
    await this.insertChildren(id, children);
    // A new job is a draft until it is published: the feed learns of it then.
    await inTransaction(this.unit).record(values.updated_at, {
      resource: 'job',
      id,
      change: null,
      companyId: values.company_id,
    });
    return id;
  }

  /** Ties the new job, and the create's answer, to the request's Idempotency-Key claim (the last statement before the commit). */
  async recordCreated(id: number, answer: unknown): Promise<void> {
    await recordCreated(this.db, id, answer);
  }

  async update(
    id: number,
    values: Updateable<JobsTable> & { updated_at: number },
    children: JobChildren,
    textChanged: boolean,
  ): Promise<string[]> {
    const before = await this.before(id);
    await this.db.updateTable('jobs').set(values).where('id', '=', id).execute();
    // Translations describe the old texts; they go when the texts change.
    if (textChanged) await this.db.deleteFrom('job_translations').where('job_id', '=', id).execute();
    const replacedImages = children.imageKeys
      ? (await this.db.selectFrom('job_images').select('media_key').where('job_id', '=', id).execute()).map(
          (r) => r.media_key,
        )
      : [];
    await this.replaceChildren(id, children);
    // A draft is not public: its edits are not changes of the feed.
    const change = PUBLIC_STATUSES.has(before.status) ? 'job.updated' : null;
    await inTransaction(this.unit).record(values.updated_at, {
      resource: 'job',
      id,
      change,
      companyId: before.company_id,
    });
    return replacedImages;
  }

  /**
   * A lifecycle change (publish, deactivate, delete) of a job whose status the caller read as `before.status`,
   * recorded for the search index to read the job again. Changes nothing and returns false when the status is no
   * longer that (another request changed it since).
   */
  async setState(
    id: number,
    before: { status: string; company_id: number },
    values: Pick<Updateable<JobsTable>, 'status' | 'start_at' | 'end_at' | 'deleted_at'> & { updated_at: number },
  ): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', before.status)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) return false;
    const wasPublic = PUBLIC_STATUSES.has(before.status);
    const change: ChangeType | null =
      values.status === 'published'
        ? 'job.published'
        : values.status === 'finish'
          ? before.status === 'published'
            ? 'job.closed'
            : null
          : values.status === 'deleted' && wasPublic
            ? 'job.deleted'
            : null;
    await inTransaction(this.unit).record(values.updated_at, {
      resource: 'job',
      id,
      change,
      companyId: before.company_id,
    });
    return true;
  }

  /** Jobs of a company except deleted ones, newest first; `only` limits them to these ids. */
  async companyJobs(
    companyId: number,
    only: number[] | null,
    limit: number,
    offset: number,
  ): Promise<{ total: number; ids: number[] }> {
    if (only !== null && only.length === 0) return { total: 0, ids: [] };
    let query = this.db.selectFrom('jobs').where('company_id', '=', companyId).where('status', '!=', 'deleted');
    if (only !== null) query = query.where('id', 'in', only);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(total), ids: rows.map((r) => r.id) };
  }

  /** Replaces the children given; those left out stay as they are. */
  private async replaceChildren(id: number, children: JobChildren): Promise<void> {
    const tables = (
      [
        ['job_settings', children.settings],
        ['job_images', children.imageKeys],
      ] as const
    ).flatMap(([table, given]) => (given ? [table] : []));
    for (const table of tables) await sendLater(this.db, this.db.deleteFrom(table).where('job_id', '=', id));
    await this.insertChildren(id, children);
  }

  private async insertChildren(id: number, children: JobChildren): Promise<void> {
    if (children.settings?.length) {
      await sendLater(
        this.db,
        this.db.insertInto('job_settings').values(
          children.settings.map((s, position) => ({
            job_id: id,
            position,
            setting_type: s.type ?? 'CUSTOM',
            title: s.title ?? '',
            required: s.required ? 1 : 0,
            upload_type: s.uploadType ?? 'ANY',
          })),
        ),
      );
    }
    if (children.imageKeys?.length) {
      await sendLater(
        this.db,
        this.db
          .insertInto('job_images')
          .values(children.imageKeys.map((media_key, position) => ({ job_id: id, position, media_key }))),
      );
    }
  }
}
