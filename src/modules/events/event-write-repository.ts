import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import type { ChangeType } from '../../change-feed/change-log.js';
import type { DB, EventsTable } from '../../db/schema.js';
import { recordCreated } from '../../db/idempotency.js';
import { sendLater } from '../../db/sent-later.js';
import { inTransaction, writeTransaction, type WriteUnit } from '../../writes/write-unit.js';

type SubTable = 'event_tickets' | 'event_sessions' | 'event_faqs' | 'event_hosts';

/**
 * The SQL of writing events and their tickets, sessions, FAQs and hosts. A transaction records, before it commits,
 * one change per event it touched for the change feed: `event.created`, `event.deleted`, or `event.updated` (also
 * for a ticket, session, FAQ or host, which the public event shows).
 */
export class EventWriteRepository {
  private readonly touched = new Map<string, ChangeType>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly feed?: Pick<ChangeFeed, 'publish'>,
    private readonly clock: () => number = Date.now,
    private readonly unit?: WriteUnit,
  ) {}

  transaction<T>(work: (repository: EventWriteRepository) => Promise<T>): Promise<T> {
    return writeTransaction(
      this.db,
      this.feed,
      (unit) => new EventWriteRepository(unit.db, undefined, this.clock, unit),
      async (repository) => {
        const done = await work(repository);
        await repository.recordTouched();
        return done;
      },
    );
  }

  private touch(eventId: string, type: ChangeType = 'event.updated'): void {
    const before = this.touched.get(eventId);
    if (type === 'event.updated' && before !== undefined) return;
    this.touched.set(eventId, before === 'event.created' && type === 'event.deleted' ? 'event.deleted' : type);
  }

  private async recordTouched(): Promise<void> {
    if (this.touched.size === 0) return;
    const events = await this.db
      .selectFrom('events')
      .select(['id', 'company_id', 'status'])
      .where('id', 'in', [...this.touched.keys()])
      .execute();
    const byId = new Map(events.map((e) => [e.id, e]));
    // Only what the public API shows goes to the feed: a draft's changes are not reported (a deletion is, of a public
    // event or not). The search index reads every touched event again.
    const shown = (id: string, type: ChangeType) => type === 'event.deleted' || byId.get(id)?.status === 'published';
    await inTransaction(this.unit).record(
      this.clock(),
      ...[...this.touched].map(([id, change]) => ({
        resource: 'event' as const,
        id,
        change: shown(id, change) ? change : null,
        companyId: byId.get(id)?.company_id ?? null,
      })),
    );
  }

  async find(id: string) {
    return (
      (await this.db
        .selectFrom('events')
        .innerJoin('companies', 'companies.id', 'events.company_id')
        .select([
          'events.id',
          'events.company_id',
          'events.status',
          'events.banner_key',
          'events.start_at',
          'events.end_at',
          'companies.handle as company_handle',
        ])
        .where('events.id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  /** What keeps an event from being deleted: its tickets, and the guests who registered. */
  async attendance(id: string): Promise<{ tickets: number; guests: number }> {
    const tickets = await this.db
      .selectFrom('event_tickets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', id)
      .executeTakeFirstOrThrow();
    const event = await this.db.selectFrom('events').select('guest_count').where('id', '=', id).executeTakeFirst();
    return { tickets: Number(tickets.n), guests: Number(event?.guest_count ?? 0) };
  }

  /** A new event; `answer`, what its create answers, is kept with the request's Idempotency-Key in the same commit. */
  async insert(
    values: Insertable<EventsTable>,
    categories: string[],
    subjects: string[],
    hosts: Array<Omit<Insertable<DB['event_hosts']>, 'event_id' | 'position'>>,
    attachments: Array<{ mediaKey: string; fileName: string | null }>,
    answer: unknown,
  ): Promise<void> {
    await sendLater(this.db, this.db.insertInto('events').values(values));
    await this.insertCodes(values.id, categories, subjects);
    if (hosts.length)
      await sendLater(
        this.db,
        this.db.insertInto('event_hosts').values(hosts.map((h, position) => ({ ...h, event_id: values.id, position }))),
      );
    if (attachments.length) {
      await sendLater(
        this.db,
        this.db.insertInto('event_attachments').values(
          attachments.map((a, position) => ({
            event_id: values.id,
            position,
            media_key: a.mediaKey,
            file_name: a.fileName,
          })),
        ),
      );
    }
    await recordCreated(this.db, values.id, answer);
    this.touch(values.id, 'event.created');
  }

  async update(id: string, values: Updateable<EventsTable>, categories?: string[], subjects?: string[]): Promise<void> {
    await sendLater(this.db, this.db.updateTable('events').set(values).where('id', '=', id));
    await this.replaceCodes(id, categories, subjects);
    this.touch(id, values.status === 'deleted' ? 'event.deleted' : 'event.updated');
  }

  private async replaceCodes(id: string, categories?: string[], subjects?: string[]): Promise<void> {
    if (categories) await sendLater(this.db, this.db.deleteFrom('event_categories').where('event_id', '=', id));
    if (subjects) await sendLater(this.db, this.db.deleteFrom('event_subjects').where('event_id', '=', id));
    await this.insertCodes(id, categories ?? [], subjects ?? []);
  }

  private async insertCodes(id: string, categories: string[], subjects: string[]): Promise<void> {
    if (categories.length)
      await sendLater(
        this.db,
        this.db.insertInto('event_categories').values(categories.map((category) => ({ event_id: id, category }))),
      );
    if (subjects.length)
      await sendLater(
        this.db,
        this.db.insertInto('event_subjects').values(subjects.map((subject) => ({ event_id: id, subject }))),
      );
  }

  async insertTicket(values: Insertable<DB['event_tickets']>): Promise<number> {
    this.touch(values.event_id);
    return this.created(
      (await this.db.insertInto('event_tickets').values(values).returning('id').executeTakeFirstOrThrow()).id,
    );
  }

  async updateTicket(eventId: string, id: number, values: Updateable<DB['event_tickets']>): Promise<boolean> {
    const result = await this.db
      .updateTable('event_tickets')
      .set(values)
      .where('event_id', '=', eventId)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.touchedIf(eventId, Number(result.numUpdatedRows) > 0);
  }

  async findTicket(eventId: string, id: number) {
    return (
      (await this.db
        .selectFrom('event_tickets')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  async insertSession(values: Omit<Insertable<DB['event_sessions']>, 'position'>): Promise<number> {
    this.touch(values.event_id);
    const position = await this.nextPosition('event_sessions', values.event_id);
    return this.created(
      (
        await this.db
          .insertInto('event_sessions')
          .values({ ...values, position })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }

  async updateSession(eventId: string, id: number, values: Updateable<DB['event_sessions']>): Promise<boolean> {
    const result = await this.db
      .updateTable('event_sessions')
      .set(values)
      .where('event_id', '=', eventId)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.touchedIf(eventId, Number(result.numUpdatedRows) > 0);
  }

  async insertFaq(values: Omit<Insertable<DB['event_faqs']>, 'position'>): Promise<number> {
    this.touch(values.event_id);
    const position = await this.nextPosition('event_faqs', values.event_id);
    return this.created(
      (
        await this.db
          .insertInto('event_faqs')
          .values({ ...values, position })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }

  async updateFaq(eventId: string, id: number, values: Updateable<DB['event_faqs']>): Promise<boolean> {
    const result = await this.db
      .updateTable('event_faqs')
      .set(values)
      .where('event_id', '=', eventId)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.touchedIf(eventId, Number(result.numUpdatedRows) > 0);
  }

  async insertHost(values: Omit<Insertable<DB['event_hosts']>, 'position'>): Promise<number> {
    this.touch(values.event_id);
    const position = await this.nextPosition('event_hosts', values.event_id);
    return this.created(
      (
        await this.db
          .insertInto('event_hosts')
          .values({ ...values, position })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }

  /**
   * Ties a new sub-resource, and its create's answer (made from its id alone), to the request's Idempotency-Key
   * claim; call inside the creating transaction.
   */
  private async created(id: number): Promise<number> {
    await recordCreated(this.db, id, id);
    return id;
  }

  async updateHost(eventId: string, id: number, roles: string[]): Promise<boolean> {
    const result = await this.db
      .updateTable('event_hosts')
      .set({ roles: JSON.stringify(roles) })
      .where('event_id', '=', eventId)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.touchedIf(eventId, Number(result.numUpdatedRows) > 0);
  }

  /** Deletes one ticket, session, FAQ or host of the event; false when there is none with that id. */
  async deleteSub(table: SubTable, eventId: string, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom(table)
      .where('event_id', '=', eventId)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.touchedIf(eventId, Number(result.numDeletedRows) > 0);
  }

  private touchedIf(eventId: string, changed: boolean): boolean {
    if (changed) this.touch(eventId);
    return changed;
  }

  private async nextPosition(table: 'event_sessions' | 'event_faqs' | 'event_hosts', eventId: string): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.max('position').as('last'))
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }
}
