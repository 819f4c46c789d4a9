import { sql, type Kysely, type Migration } from 'kysely';

/** How many rows each data version is spread over. */
export const DATA_VERSION_SLOTS = 16;

/**
 * Each data version spread over 16 rows whose sum is the version. Every post or job write bumps its version
 * inside its transaction, and on PostgreSQL a single row made every concurrent post write wait for the
 * previous one's commit (its row lock is held until then). A write now bumps one slot picked at random, so
 * concurrent writes rarely meet; the sum still grows with every committed write, which is all a reader needs.
 */
export function dataVersionSlots(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('data_version_slots')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_version_slots_pk', ['name', 'slot'])
        .execute();
      for (const name of ['posts', 'jobs']) {
        for (let slot = 0; slot < DATA_VERSION_SLOTS; slot++) {
          // Slot 0 carries the old single version on, so a version never goes back.
          await sql`INSERT INTO data_version_slots (name, slot, version)
            SELECT ${name}, ${slot}, ${slot === 0 ? sql`version` : sql`0`} FROM data_versions WHERE name = ${name}`.execute(
            db,
          );
        }
      }
      await db.schema.dropTable('data_versions').execute();
    },
  };
}
