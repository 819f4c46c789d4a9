/**
 * The source the profile index reads from (profile-index.ts): the public profiles of members whose accounts are in use,
 * in creation order or by ids, as documents of what an app key may see; and their ids with change times for the
 * index's check against the tables. A profile that is private, or whose member is disabled, is not a row here, so the
 * index takes it out when its change is read.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ItemSource } from '../../search/live-index.js';
import type { IndexedItem } from '../../search/ordered-documents.js';
import { profileDocument } from './profile-document.js';

export function profileSearchRows(db: Kysely<DB>): ItemSource {
  const publicProfiles = () =>
    db
      .selectFrom('profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .where('p.visibility', '=', 'PUBLIC')
      .where('u.disabled_at', 'is', null);
  const profiles = () =>
    publicProfiles().select([
      'p.user_id',
      'u.name',
      'p.headline',
      'p.skills',
      'p.experiences',
      'p.show_experiences',
      'p.current_company_id',
      'p.open_to_work',
      'p.show_open_to_work',
      'p.location_country',
      'p.location_region',
      'p.location_latitude',
      'p.location_longitude',
      'p.created_at',
      'p.updated_at',
    ]);
  type Row = Awaited<ReturnType<ReturnType<typeof profiles>['execute']>>[number];
  const items = (rows: Row[]): IndexedItem[] =>
    rows.map((row) => {
      const shown = row.show_experiences === 1;
      return {
        id: Number(row.user_id),
        time: Number(row.created_at),
        stamp: Number(row.updated_at),
        extra: [Number(row.updated_at)],
        document: profileDocument({
          ...row,
          skills: JSON.parse(row.skills) as string[],
          titles: shown ? (JSON.parse(row.experiences) as Array<{ title: string }>).map((e) => e.title) : [],
          currentCompanyId: shown && row.current_company_id !== null ? Number(row.current_company_id) : null,
          openToWork: row.show_open_to_work === 1 && row.open_to_work === 1,
        }),
      };
    });
  return {
    kind: 'profile',
    extraColumns: 1,
    inOrder: async (after, limit) =>
      items(
        await profiles()
          .$if(after !== null, (q) =>
            q.where((eb) => eb(eb.refTuple('p.created_at', 'p.user_id'), '>', eb.tuple(after![0], after![1]))),
          )
          .orderBy('p.created_at')
          .orderBy('p.user_id')
          .limit(limit)
          .execute(),
      ),
    byIds: async (ids) => items(await profiles().where('p.user_id', 'in', ids).execute()),
    idsAfter: async (after, limit) =>
      (
        await publicProfiles()
          .select(['p.user_id', 'p.updated_at'])
          .where('p.user_id', '>', after)
          .orderBy('p.user_id')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.user_id), Number(row.updated_at)]),
    count: async () =>
      Number(
        (
          await publicProfiles()
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
