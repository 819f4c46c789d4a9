import type { Kysely } from 'kysely';
import type { PreparedRead, PreparedReads } from '../../db/prepared-reads.js';
import type { DB } from '../../db/schema.js';
import { EVENT_DETAILS, EVENT_ITEMS, type EventDetailRow, type EventItemRow } from './event-reads.js';

/**
 * Reads of events: details and the items of search pages as prepared statements (event-reads.ts), and the parts
 * the sub-resource lists show (searches are the event index's: event-index.ts).
 */
export class EventRepository {
  private readonly itemReads: PreparedRead<EventItemRow>;
  private readonly detailReads: PreparedRead<EventDetailRow>;

  constructor(
    private readonly db: Kysely<DB>,
    reads: PreparedReads,
  ) {
    this.itemReads = reads.prepare('event_items', EVENT_ITEMS);
    this.detailReads = reads.prepare('event_details', EVENT_DETAILS);
  }

  /** The events of `ids` that exist (any status), in no particular order, translated into `language` where a translation exists (null: none). */
  async items(ids: string[], language: string | null): Promise<EventItemRow[]> {
    return ids.length === 0 ? [] : this.itemReads.all([ids, language]);
  }

  /** The same as details: tickets, sessions, FAQs and attachments too. */
  async details(ids: string[], language: string | null): Promise<EventDetailRow[]> {
    return ids.length === 0 ? [] : this.detailReads.all([ids, language]);
  }

  /** The ids of the events numbered `numbers` (the search index knows events by number), in that order. */
  async idsOf(numbers: number[]): Promise<string[]> {
    if (numbers.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'search_number'])
      .where('search_number', 'in', numbers)
      .execute();
    const idOf = new Map(rows.map((r) => [Number(r.search_number), r.id]));
    return numbers.flatMap((n) => idOf.get(n) ?? []);
  }

  /** What the sub-resource lists need of an event: whether it is published, and its times and guests. */
  async factsOf(eventId: string) {
    return this.db
      .selectFrom('events')
      .select(['status', 'start_at', 'end_at', 'guest_count'])
      .where('id', '=', eventId)
      .executeTakeFirst();
  }

  async ticketsOf(eventId: string) {
    return this.db.selectFrom('event_tickets').selectAll().where('event_id', '=', eventId).orderBy('id').execute();
  }

  async sessionsOf(eventId: string) {
    return this.db
      .selectFrom('event_sessions')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('sort_no')
      .orderBy('position')
      .execute();
  }

  async attachmentsOf(eventId: string) {
    return this.db
      .selectFrom('event_attachments')
      .select(['media_key', 'file_name'])
      .where('event_id', '=', eventId)
      .orderBy('position')
      .execute();
  }

  async faqsOf(eventId: string) {
    return this.db
      .selectFrom('event_faqs')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('sort_no')
      .orderBy('position')
      .execute();
  }
}
