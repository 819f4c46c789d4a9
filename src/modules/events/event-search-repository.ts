/**
 * The repository the event index reads from (event-index.ts): the published events in start order, and those of some
 * numbers, with their codes and translations, as documents; and numbers with their change times for the index's check
 * against the tables. The index knows an event by its `search_number` (its id is text).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ItemSource } from '../../search/live-index.js';
import type { IndexedItem } from '../../search/ordered-documents.js';
import { groupBy } from '../../shared/group.js';
import { eventDocument } from './event-document.js';

export function eventSearchRows(db: Kysely<DB>): ItemSource {
  const published = () =>
    db
      .selectFrom('events')
      .select([
        'id',
        'search_number',
        'event_name',
        'description',
        'company_id',
        'event_open_type',
        'start_at',
        'end_at',
        'updated_at',
      ])
      .where('status', '=', 'published');
  type Row = Awaited<ReturnType<ReturnType<typeof published>['execute']>>[number];
  const items = async (rows: Row[]): Promise<IndexedItem[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [categories, subjects, translations] = await Promise.all([
      db.selectFrom('event_categories').select(['event_id', 'category']).where('event_id', 'in', ids).execute(),
      db.selectFrom('event_subjects').select(['event_id', 'subject']).where('event_id', 'in', ids).execute(),
      db
        .selectFrom('event_translations')
        .select(['event_id', 'event_name', 'description'])
        .where('event_id', 'in', ids)
        .execute(),
    ]);
    const [byCategory, bySubject, byTranslation] = [
      groupBy(categories, (c) => c.event_id),
      groupBy(subjects, (s) => s.event_id),
      groupBy(translations, (t) => t.event_id),
    ];
    return rows.map((row) => ({
      id: Number(row.search_number),
      time: Number(row.start_at),
      stamp: Number(row.updated_at),
      extra: [Number(row.end_at)],
      document: eventDocument({
        ...row,
        categories: (byCategory.get(row.id) ?? []).map((c) => c.category),
        subjects: (bySubject.get(row.id) ?? []).map((s) => s.subject),
        translations: (byTranslation.get(row.id) ?? []).flatMap((t) => [t.event_name, t.description]),
      }),
    }));
  };
  return {
    kind: 'event',
    extraColumns: 1,
    inOrder: async (after, limit) =>
      items(
        await published()
          .$if(after !== null, (q) =>
            q.where((eb) => eb(eb.refTuple('start_at', 'search_number'), '>', eb.tuple(after![0], after![1]))),
          )
          .orderBy('start_at')
          .orderBy('search_number')
          .limit(limit)
          .execute(),
      ),
    byIds: async (numbers) => items(await published().where('search_number', 'in', numbers).execute()),
    idsAfter: async (after, limit) =>
      (
        await db
          .selectFrom('events')
          .select(['search_number', 'updated_at'])
          .where('status', '=', 'published')
          .where('search_number', '>', after)
          .orderBy('search_number')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.search_number), Number(row.updated_at)]),
    count: async () =>
      Number(
        (
          await db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'published')
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
