import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, EventsTable } from '../../db/schema.js';
import { recordCreated } from '../../shared/idempotency.js';

type SubTable = 'event_tickets' | 'event_sessions' | 'event_faqs' | 'event_hosts';

/** The SQL of writing events and their tickets, sessions, FAQs and hosts. */
export class EventWriteRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async transaction<T>(work: (repository: EventWriteRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new EventWriteRepository(trx)));
  }

  async find(id: string) {
    return await this.db.selectFrom('events').innerJoin('companies', 'companies.id', 'events.company_id')
      .select(['events.id', 'events.company_id', 'events.status', 'events.banner_key', 'events.start_at', 'events.end_at', 'companies.handle as company_handle'])
      .where('events.id', '=', id).executeTakeFirst() ?? null;
  }

  /** What keeps an event from being deleted: its tickets, and the guests who registered. */
  async attendance(id: string): Promise<{ tickets: number; guests: number }> {
    const tickets = await this.db.selectFrom('event_tickets').select((eb) => eb.fn.countAll<number>().as('n')).where('event_id', '=', id).executeTakeFirstOrThrow();
    const event = await this.db.selectFrom('events').select('guest_count').where('id', '=', id).executeTakeFirst();
    return { tickets: Number(tickets.n), guests: Number(event?.guest_count ?? 0) };
  }

  async insert(
    values: Insertable<EventsTable>, categories: string[], subjects: string[],
    hosts: Array<Omit<Insertable<DB['event_hosts']>, 'event_id' | 'position'>> = [], attachments: Array<{ mediaKey: string; fileName: string | null }> = [],
  ): Promise<void> {
    await this.db.insertInto('events').values(values).execute();
    await this.replaceCodes(values.id, categories, subjects);
    if (hosts.length) await this.db.insertInto('event_hosts').values(hosts.map((h, position) => ({ ...h, event_id: values.id, position }))).execute();
    if (attachments.length) {
      await this.db.insertInto('event_attachments').values(attachments.map((a, position) => ({
        event_id: values.id, position, media_key: a.mediaKey, file_name: a.fileName,
      }))).execute();
    }
    await recordCreated(this.db, values.id);
  }

  async update(id: string, values: Updateable<EventsTable>, categories?: string[], subjects?: string[]): Promise<void> {
    await this.db.updateTable('events').set(values).where('id', '=', id).execute();
    await this.replaceCodes(id, categories, subjects);
  }

  private async replaceCodes(id: string, categories?: string[], subjects?: string[]): Promise<void> {
    if (categories) {
      await this.db.deleteFrom('event_categories').where('event_id', '=', id).execute();
      if (categories.length) await this.db.insertInto('event_categories').values(categories.map((category) => ({ event_id: id, category }))).execute();
    }
    if (subjects) {
      await this.db.deleteFrom('event_subjects').where('event_id', '=', id).execute();
      if (subjects.length) await this.db.insertInto('event_subjects').values(subjects.map((subject) => ({ event_id: id, subject }))).execute();
    }
  }

  async insertTicket(values: Insertable<DB['event_tickets']>): Promise<number> {
    return this.created((await this.db.insertInto('event_tickets').values(values).returning('id').executeTakeFirstOrThrow()).id);
  }

  async updateTicket(eventId: string, id: number, values: Updateable<DB['event_tickets']>): Promise<boolean> {
    const result = await this.db.updateTable('event_tickets').set(values).where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findTicket(eventId: string, id: number) {
    return await this.db.selectFrom('event_tickets').selectAll().where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst() ?? null;
  }

  async insertSession(values: Omit<Insertable<DB['event_sessions']>, 'position'>): Promise<number> {
    const position = await this.nextPosition('event_sessions', values.event_id);
    return this.created((await this.db.insertInto('event_sessions').values({ ...values, position }).returning('id').executeTakeFirstOrThrow()).id);
  }

  async updateSession(eventId: string, id: number, values: Updateable<DB['event_sessions']>): Promise<boolean> {
    const result = await this.db.updateTable('event_sessions').set(values).where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertFaq(values: Omit<Insertable<DB['event_faqs']>, 'position'>): Promise<number> {
    const position = await this.nextPosition('event_faqs', values.event_id);
    return this.created((await this.db.insertInto('event_faqs').values({ ...values, position }).returning('id').executeTakeFirstOrThrow()).id);
  }

  async updateFaq(eventId: string, id: number, values: Updateable<DB['event_faqs']>): Promise<boolean> {
    const result = await this.db.updateTable('event_faqs').set(values).where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertHost(values: Omit<Insertable<DB['event_hosts']>, 'position'>): Promise<number> {
    const position = await this.nextPosition('event_hosts', values.event_id);
    return this.created((await this.db.insertInto('event_hosts').values({ ...values, position }).returning('id').executeTakeFirstOrThrow()).id);
  }

  /** Ties a new sub-resource to the request's Idempotency-Key claim; call inside the creating transaction. */
  private async created(id: number): Promise<number> {
    await recordCreated(this.db, id);
    return id;
  }

  async updateHost(eventId: string, id: number, roles: string[]): Promise<boolean> {
    const result = await this.db.updateTable('event_hosts').set({ roles: JSON.stringify(roles) }).where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes one ticket, session, FAQ or host of the event; false when there is none with that id. */
  async deleteSub(table: SubTable, eventId: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom(table).where('event_id', '=', eventId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private async nextPosition(table: 'event_sessions' | 'event_faqs' | 'event_hosts', eventId: string): Promise<number> {
    const row = await this.db.selectFrom(table).select((eb) => eb.fn.max('position').as('last')).where('event_id', '=', eventId).executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }
}
