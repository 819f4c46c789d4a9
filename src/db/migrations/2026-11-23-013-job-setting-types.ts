import type { Kysely, Migration } from 'kysely';

/** What an application setting asks for (the reference's RESUME, COVER_LETTER, PORTFOLIO, CUSTOM); existing settings are CUSTOM. */
export function jobSettingTypes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('job_settings')
        .addColumn('setting_type', 'text', (c) => c.notNull().defaultTo('CUSTOM'))
        .execute();
    },
  };
}
