import { sql, type Kysely } from 'kysely';
import type { LongReads } from '../../db/database.js';
import type { PreparedRead, PreparedReads } from '../../db/prepared-reads.js';
import type { DB } from '../../db/schema.js';
import { FACET_TOP, mostFirst, type FacetCount } from '../../search/facet-counts.js';
import { EVENT_DETAILS, EVENT_ITEMS, type EventDetailRow, type EventItemRow } from './event-reads.js';
import type { EventFacet } from './event-schemas.js';

export interface EventSearchFilter {
  /** Every word must appear in the name or the description (case-insensitive). */
  words?: string[];
  startFrom?: number;
  startTo?: number;
  /** Which events, as of `now`: not started, started and not ended, or ended. */
  status?: { is: 'UPCOMING' | 'ONGOING' | 'CLOSED'; now: number };
  companyId?: number;
  categories?: string[];
  subjects?: string[];
  openTypes?: string[];
  ascending: boolean;
  limit: number;
  offset: number;
}

/**
 * All reads of events: searches and facet counts built with Kysely and run as long reads; details and the items
 * of search pages as prepared statements (event-reads.ts). Public reads see published events only.
 */
export class EventRepository {
  private readonly itemReads: PreparedRead<EventItemRow>;
  private readonly detailReads: PreparedRead<EventDetailRow>;

  /** `longReads` runs the search count and page. */
  constructor(
    private readonly db: Kysely<DB>,
    reads: PreparedReads,
    private readonly longReads: LongReads,
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

  private filtered(filter: EventSearchFilter) {
    let query = this.db.selectFrom('events').where('events.status', '=', 'published');
    if (filter.companyId !== undefined) query = query.where('events.company_id', '=', filter.companyId);
    if (filter.openTypes?.length) query = query.where('events.event_open_type', 'in', filter.openTypes);
    for (const word of filter.words ?? []) {
      // ASCII letters only: SQLite's lower() folds no others, so both engines match the same events.
      const pattern = `%${word.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(sql<string>`lower(events.event_name)`, 'like', sql<string>`${pattern} escape '\\'`),
          eb(sql<string>`lower(events.description)`, 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (filter.startFrom !== undefined) query = query.where('events.start_at', '>=', filter.startFrom);
    if (filter.startTo !== undefined) query = query.where('events.start_at', '<=', filter.startTo);
    if (filter.status) {
      const { is, now } = filter.status;
      if (is === 'UPCOMING') query = query.where('events.start_at', '>', now);
      if (is === 'ONGOING') query = query.where('events.start_at', '<=', now).where('events.end_at', '>', now);
      if (is === 'CLOSED') query = query.where('events.end_at', '<=', now);
    }
    if (filter.categories?.length) {
      const values = filter.categories;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_categories')
            .select('event_categories.event_id')
            .whereRef('event_categories.event_id', '=', 'events.id')
            .where('event_categories.category', 'in', values),
        ),
      );
    }
    if (filter.subjects?.length) {
      const values = filter.subjects;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_subjects')
            .select('event_subjects.event_id')
            .whereRef('event_subjects.event_id', '=', 'events.id')
            .where('event_subjects.subject', 'in', values),
        ),
      );
    }
    return query;
  }

  async search(filter: EventSearchFilter): Promise<{ total: number; ids: string[] }> {
    const [{ total } = { total: 0 }] = await this.longReads(
      this.filtered(filter).select((eb) => eb.fn.countAll<number>().as('total')),
    );
    if (Number(total) === 0 || filter.offset >= Number(total)) return { total: Number(total), ids: [] };
    const direction = filter.ascending ? 'asc' : 'desc';
    const rows = await this.longReads(
      this.filtered(filter)
        .select('events.id')
        .orderBy('events.start_at', direction)
        .orderBy('events.id', direction)
        .limit(filter.limit)
        .offset(filter.offset),
    );
    return { total: Number(total), ids: rows.map((r) => r.id) };
  }

  /**
   * How many events of the search hold each value of a facet, the search's own filter on that facet left out
   * (a menu counts the other values too). Counted by the engine; ordered here, so both engines agree.
   */
  async facetCounts(filter: EventSearchFilter, facet: EventFacet): Promise<FacetCount[]> {
    const matches = this.filtered({ ...filter, [facet]: undefined });
    const count = sql<number>`count(*)`.as('count');
    const query =
      facet === 'categories'
        ? this.db
            .selectFrom('event_categories')
            .select(['category as value', count])
            .where('event_id', 'in', matches.select('events.id'))
            .groupBy('category')
        : facet === 'subjects'
          ? this.db
              .selectFrom('event_subjects')
              .select(['subject as value', count])
              .where('event_id', 'in', matches.select('events.id'))
              .groupBy('subject')
          : facet === 'openTypes'
            ? matches.select(['events.event_open_type as value', count]).groupBy('events.event_open_type')
            : matches
                .innerJoin('companies', 'companies.id', 'events.company_id')
                .select(['companies.handle as value', count])
                .groupBy('companies.handle');
    const rows = await this.longReads(query);
    return mostFirst(
      rows.map((row) => ({ value: row.value, count: Number(row.count) })),
      facet === 'companyId' ? FACET_TOP : undefined,
    );
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
