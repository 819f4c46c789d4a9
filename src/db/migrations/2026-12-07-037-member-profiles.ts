import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Members' professional profiles (docs/profiles.md): one row per member who has written one, private until the member
 * makes it public, each section shown or hidden; and the profiles each app has read each day, which bound how many
 * distinct profiles an app reads a day. New tables only, so instances of the previous release, which neither read
 * nor write them, keep running beside this one. Profile writes bump the `profiles` data version and log changes in
 * `search_changes`.
 */
export function memberProfiles(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('profiles')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('headline', 'text')
        .addColumn('skills', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('experiences', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('educations', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('location_country', 'text')
        .addColumn('location_region', 'text')
        .addColumn('location_latitude', 'double precision')
        .addColumn('location_longitude', 'double precision')
        .addColumn('open_to_work', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('PRIVATE'))
        .addColumn('show_experiences', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('show_educations', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('show_links', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('show_open_to_work', 'integer', (c) => c.notNull().defaultTo(1))
        // The member's current experience (the first without an end), as JSON {title, companyName, companyId}: what a
        // search page shows of experiences, without reading them all; and its company's number, for `companyId`.
        .addColumn('current_position', 'text')
        .addColumn('current_company_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The profile index reads the public profiles in creation order, a batch at a time.
      await db.schema.createIndex('profiles_created').on('profiles').columns(['created_at', 'user_id']).execute();
      // Distinct profiles read through details, per caller (an app) and UTC day, and how many that day holds.
      await db.schema
        .createTable('profile_reads')
        .addColumn('caller', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_reads_pk', ['caller', 'day', 'user_id'])
        .execute();
      await db.schema
        .createTable('profile_read_days')
        .addColumn('caller', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('reads', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_read_days_pk', ['caller', 'day'])
        .execute();
      // As many slots as the other data versions have (migration 008).
      for (let slot = 0; slot < 16; slot++) {
        await sql`INSERT INTO data_version_slots (name, slot, version) VALUES ('profiles', ${slot}, 0)`.execute(db);
      }
    },
  };
}
