import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Events as the real service publishes them: access and join types and coordinates on the event, ON_OFFLINE
 * for hybrid (stored HYBRID values carried over), prices on tickets and their form fields in the reference's
 * shape, videos, thumbnails, speakers and an order on sessions, categories and an order on FAQs, attachments
 * (images) on events. Existing rows
 * keep their data and get the reference's defaults.
 */
export function eventReferenceShape(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const add = async (table: string, column: string, type: 'text' | 'double precision', notNullDefault?: string) => {
        await db.schema
          .alterTable(table)
          .addColumn(column, type, (c) => (notNullDefault === undefined ? c : c.notNull().defaultTo(notNullDefault)))
          .execute();
      };
      await add('events', 'access_type', 'text', 'PUBLIC');
      await add('events', 'join_type', 'text', 'OPEN');
      await add('events', 'latitude', 'double precision');
      await add('events', 'longitude', 'double precision');
      await sql`UPDATE events SET event_open_type = 'ON_OFFLINE' WHERE event_open_type = 'HYBRID'`.execute(db);
      await add('event_tickets', 'price', 'double precision');
      await add('event_tickets', 'currency', 'text');
      await add('event_sessions', 'video_url', 'text');
      await add('event_sessions', 'thumbnail_path', 'text');
      await add('event_sessions', 'speakers', 'text', '[]');
      await add('event_faqs', 'category_name', 'text', 'FAQ');
      await db.schema
        .createTable('event_attachments')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('media_key', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text')
        .addPrimaryKeyConstraint('event_attachments_pk', ['event_id', 'position'])
        .execute();
      await db.schema.createIndex('event_attachments_media_key').on('event_attachments').column('media_key').execute();
      await db.schema
        .alterTable('event_sessions')
        .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('event_faqs')
        .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Ticket form fields in the reference's shape: {label, type} becomes {fieldLabel, fieldType}.
      const tickets = await sql<{
        id: number;
        form_fields: string;
      }>`SELECT id, form_fields FROM event_tickets WHERE form_fields <> '[]'`.execute(db);
      for (const ticket of tickets.rows) {
        const fields = (JSON.parse(ticket.form_fields) as Array<Record<string, unknown>>).map(
          ({ label, type, ...rest }) => ({
            ...rest,
            fieldLabel: rest.fieldLabel ?? label ?? '',
            fieldType: rest.fieldType ?? type ?? 'TEXT',
          }),
        );
        await sql`UPDATE event_tickets SET form_fields = ${JSON.stringify(fields)} WHERE id = ${ticket.id}`.execute(db);
      }
    },
  };
}
