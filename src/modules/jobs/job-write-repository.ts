import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, JobsTable } from '../../db/schema.js';
import { bumpDataVersion } from '../../cache/data-version.js';
import { recordSearchChanges } from '../../search/search-changes.js';
import { recordCreated } from '../../shared/idempotency.js';

export interface JobChildren {
  seniorities?: string[];
  employmentTypes?: string[];
  settings?: Array<{ type?: string; title?: string | null; required?: boolean; uploadType?: string }>;
  imageKeys?: string[];
}

/** The SQL of writing jobs; used inside one transaction per request. */
export class JobWriteRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async transaction<T>(work: (repository: JobWriteRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new JobWriteRepository(trx)));
  }

  async find(id: number) {
    return await this.db.selectFrom('jobs')
      .innerJoin('companies', 'companies.id', 'jobs.company_id')
      .select(['jobs.id', 'jobs.company_id', 'jobs.job_type', 'jobs.status', 'companies.handle as company_handle'])
      .where('jobs.id', '=', id).executeTakeFirst() ?? null;
  }

  async insert(values: Insertable<JobsTable>, children: JobChildren): Promise<number> {
    const { id } = await this.db.insertInto('jobs').values(values).returning('id').executeTakeFirstOrThrow();
    await this.replaceChildren(id, children);
    await recordSearchChanges(this.db, 'job', [id], values.updated_at);
    await bumpDataVersion(this.db, 'jobs');
    await recordCreated(this.db, id);
    return id;
  }

  async update(id: number, values: Updateable<JobsTable> & { updated_at: number }, children: JobChildren, textChanged: boolean): Promise<string[]> {
    await this.db.updateTable('jobs').set(values).where('id', '=', id).execute();
    // Translations describe the old texts; they go when the texts change.
    if (textChanged) await this.db.deleteFrom('job_translations').where('job_id', '=', id).execute();
    const replacedImages = children.imageKeys
      ? (await this.db.selectFrom('job_images').select('media_key').where('job_id', '=', id).execute()).map((r) => r.media_key)
      : [];
    await this.replaceChildren(id, children);
    await recordSearchChanges(this.db, 'job', [id], values.updated_at);
    await bumpDataVersion(this.db, 'jobs');
    return replacedImages;
  }

  /** A lifecycle change (publish, deactivate, delete), recorded for the search index to read the job again. */
  async setState(id: number, values: Pick<Updateable<JobsTable>, 'status' | 'start_at' | 'end_at' | 'deleted_at'> & { updated_at: number }): Promise<void> {
    await this.db.updateTable('jobs').set(values).where('id', '=', id).execute();
    await recordSearchChanges(this.db, 'job', [id], values.updated_at);
    await bumpDataVersion(this.db, 'jobs');
  }

  /** Jobs of a company except deleted ones, newest first; `only` limits them to these ids. */
  async companyJobs(companyId: number, only: number[] | null, limit: number, offset: number): Promise<{ total: number; ids: number[] }> {
    if (only !== null && only.length === 0) return { total: 0, ids: [] };
    let query = this.db.selectFrom('jobs').where('company_id', '=', companyId).where('status', '!=', 'deleted');
    if (only !== null) query = query.where('id', 'in', only);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query.select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(total), ids: rows.map((r) => r.id) };
  }

  private async replaceChildren(id: number, children: JobChildren): Promise<void> {
    if (children.seniorities) {
      await this.db.deleteFrom('job_seniorities').where('job_id', '=', id).execute();
      await this.db.insertInto('job_seniorities').values(children.seniorities.map((seniority) => ({ job_id: id, seniority }))).execute();
    }
    if (children.employmentTypes) {
      await this.db.deleteFrom('job_employment_types').where('job_id', '=', id).execute();
      await this.db.insertInto('job_employment_types').values(children.employmentTypes.map((employment_type) => ({ job_id: id, employment_type }))).execute();
    }
    if (children.settings) {
      await this.db.deleteFrom('job_settings').where('job_id', '=', id).execute();
      if (children.settings.length) {
        await this.db.insertInto('job_settings').values(children.settings.map((s, position) => ({
          job_id: id, position, setting_type: s.type ?? 'CUSTOM', title: s.title ?? '', required: s.required ? 1 : 0, upload_type: s.uploadType ?? 'ANY',
        }))).execute();
      }
    }
    if (children.imageKeys) {
      await this.db.deleteFrom('job_images').where('job_id', '=', id).execute();
      if (children.imageKeys.length) {
        await this.db.insertInto('job_images').values(children.imageKeys.map((media_key, position) => ({ job_id: id, position, media_key }))).execute();
      }
    }
  }
}
