import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export class CodeRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every label and description of every catalog, with each entry's group, in display order. */
  async allLabels() {
    return this.db
      .selectFrom('code_entries')
      .innerJoin('code_labels', (join) =>
        join
          .onRef('code_labels.catalog', '=', 'code_entries.catalog')
          .onRef('code_labels.code', '=', 'code_entries.code'),
      )
      .select([
        'code_entries.catalog',
        'code_entries.code',
        'code_entries.parent',
        'code_labels.locale',
        'code_labels.display_name',
        'code_labels.description',
      ])
      .orderBy('code_entries.catalog')
      .orderBy('code_entries.position')
      .execute();
  }
}
