import type { Kysely, Updateable } from 'kysely';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import type { CompaniesTable, DB } from '../../db/schema.js';
import { inTransaction, writeTransaction, type WriteUnit } from '../../writes/write-unit.js';

/**
 * The SQL of changing a company. Its transaction records `company.updated` for the change feed, and the write unit
 * makes the company's jobs, posts and events read again (they show its name and logo; write-unit.ts).
 */
export class CompanyWriteRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed?: Pick<ChangeFeed, 'publish'>,
    private readonly clock: () => number = Date.now,
    private readonly unit?: WriteUnit,
  ) {}

  transaction<T>(work: (repository: CompanyWriteRepository) => Promise<T>): Promise<T> {
    return writeTransaction(
      this.db,
      this.feed,
      (unit) => new CompanyWriteRepository(unit.db, undefined, this.clock, unit),
      work,
    );
  }

  find(handle: string) {
    return this.db
      .selectFrom('companies')
      .select(['id', 'handle', 'logo_url', 'industry'])
      .where('handle', '=', handle)
      .executeTakeFirst();
  }

  /** Sets `change` (a new description drops its translations) and records the change. */
  async update(id: number, change: Updateable<CompaniesTable>, descriptionChanged: boolean): Promise<void> {
    await this.db.updateTable('companies').set(change).where('id', '=', id).execute();
    if (descriptionChanged) await this.db.deleteFrom('company_translations').where('company_id', '=', id).execute();
    await inTransaction(this.unit).record(this.clock(), {
      resource: 'company',
      id,
      change: 'company.updated',
      companyId: id,
    });
  }
}
