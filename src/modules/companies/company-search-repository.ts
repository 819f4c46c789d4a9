/**
 * The repository the company index reads from (company-index.ts): the companies in creation order, and those of some
 * ids, with their translations and their industries' names, as documents; and ids with their change times for the
 * index's check against the tables.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ItemSource } from '../../search/live-index.js';
import type { IndexedItem } from '../../search/ordered-documents.js';
import { groupBy } from '../../shared/group.js';
import { companyDocument, companyPoint, industriesOf, nameKeys } from './company-document.js';

const COLUMNS = [
  'id',
  'handle',
  'name',
  'description',
  'size',
  'industry',
  'industries',
  'funding_stage',
  'founded_year',
  'location_country',
  'location_region',
  'location_latitude',
  'location_longitude',
  'created_at',
  'updated_at',
] as const;

/**
 * The languages whose industry names a keyword finds a company by: Korean and the languages bodies are translated into
 * (the catalog has eleven; each more is some 3 names more to read and index per company).
 */
const INDUSTRY_NAME_LOCALES = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW'];

export function companySearchRows(db: Kysely<DB>): ItemSource {
  const companies = () => db.selectFrom('companies').select(COLUMNS);
  type Row = Awaited<ReturnType<ReturnType<typeof companies>['execute']>>[number];
  const items = async (rows: Row[]): Promise<IndexedItem[]> => {
    if (rows.length === 0) return [];
    const industries = new Map(rows.map((row) => [row.id, industriesOf(row)]));
    const codes = [...new Set([...industries.values()].flat())];
    const [translations, labels] = await Promise.all([
      db
        .selectFrom('company_translations')
        .select(['company_id', 'description'])
        .where(
          'company_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute(),
      db
        .selectFrom('code_labels')
        .select(['code', 'display_name'])
        .where('catalog', '=', 'job-industries')
        .where('code', 'in', codes)
        .where('locale', 'in', INDUSTRY_NAME_LOCALES)
        .execute(),
    ]);
    const byCompany = groupBy(translations, (t) => t.company_id);
    const names = groupBy(labels, (l) => l.code);
    return rows.map((row) => {
      const codesOf = industries.get(row.id)!;
      const point = companyPoint(row);
      return {
        id: row.id,
        time: Number(row.created_at),
        stamp: Number(row.updated_at ?? row.created_at),
        extra: [point?.latitude ?? Number.NaN, point?.longitude ?? Number.NaN, ...nameKeys(row.name)],
        document: companyDocument(
          { ...row, industries: codesOf },
          (byCompany.get(row.id) ?? []).map((t) => t.description),
          [...new Set(codesOf.flatMap((code) => (names.get(code) ?? []).map((l) => l.display_name)))],
        ),
      };
    });
  };
  return {
    kind: 'company',
    extraColumns: 5,
    inOrder: async (after, limit) =>
      items(
        await companies()
          .$if(after !== null, (q) =>
            q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after![0], after![1]))),
          )
          .orderBy('created_at')
          .orderBy('id')
          .limit(limit)
          .execute(),
      ),
    byIds: async (ids) => items(await companies().where('id', 'in', ids).execute()),
    idsAfter: async (after, limit) =>
      (
        await db
          .selectFrom('companies')
          .select(['id', 'created_at', 'updated_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute()
      ).map((row): [number, number] => [Number(row.id), Number(row.updated_at ?? row.created_at)]),
    count: async () =>
      Number(
        (
          await db
            .selectFrom('companies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
