import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * Event search moves onto the search index (docs/search.md). The index numbers its items, and an event's id is text:
 * each event gets a number of its own (`search_number`), given by the database at insert (PostgreSQL: a sequence;
 * SQLite: the row id, set by a trigger), so the previous release, which never writes it, inserts events that are
 * numbered too. Event writes log their numbers in `search_changes` and bump the `events` data version.
 */
export function eventSearchIndex(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (adapter.name === 'postgres') {
        await sql`ALTER TABLE events ADD COLUMN search_number bigserial`.execute(db);
      } else {
        await sql`ALTER TABLE events ADD COLUMN search_number integer`.execute(db);
        await sql`UPDATE events SET search_number = rowid`.execute(db);
        await sql`CREATE TRIGGER events_search_number AFTER INSERT ON events WHEN NEW.search_number IS NULL
          BEGIN UPDATE events SET search_number = NEW.rowid WHERE rowid = NEW.rowid; END`.execute(db);
      }
      await db.schema.createIndex('events_search_number').unique().on('events').column('search_number').execute();
      // As many slots as the other data versions have (migration 008).
      for (let slot = 0; slot < 16; slot++) {
        await sql`INSERT INTO data_version_slots (name, slot, version) VALUES ('events', ${slot}, 0)`.execute(db);
      }
    },
  };
}
