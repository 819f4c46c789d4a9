import type { Kysely, Migration } from 'kysely';
import {
  CATALOG_DATA,
  CATALOG_NAMES,
  CODE_DESCRIPTIONS,
  INDUSTRY_GROUPS,
  LOCALES,
  industryGroupOf,
} from '../../shared/catalogs-2026-11-28.js';
import type { DB } from '../schema.js';

const EMPTY = LOCALES.map(() => '').join('|');

function split(line: string, what: string): string[] {
  const parts = line.split('|');
  if (parts.length !== LOCALES.length) throw new Error(`${what} has ${parts.length} of ${LOCALES.length} locales`);
  return parts;
}

/**
 * Every catalog as of 2026-11-28 (a frozen copy), in place of what the database held: the codes in order, each job
 * industry under its group (`parent`), and every label with its description.
 */
export async function writeCatalogs(db: Kysely<DB>): Promise<void> {
  await db.deleteFrom('code_labels').execute();
  await db.deleteFrom('code_entries').execute();
  for (const catalog of CATALOG_NAMES) {
    const groups = catalog === 'job-industries' ? INDUSTRY_GROUPS : [];
    const entries = [
      ...groups.map(([code, labels], position) => ({ code, labels, position, parent: null })),
      ...CATALOG_DATA[catalog].map(([code, labels], position) => ({
        code,
        labels,
        position,
        parent: groups.length > 0 ? industryGroupOf(code) : null,
      })),
    ];
    await db
      .insertInto('code_entries')
      .values(entries.map(({ code, position, parent }) => ({ catalog, code, position, parent })))
      .execute();
    await db
      .insertInto('code_labels')
      .values(
        entries.flatMap(({ code, labels }) => {
          const names = split(labels, `Catalog ${catalog} code ${code}`);
          const descriptions = split(
            CODE_DESCRIPTIONS[catalog]?.[code] ?? EMPTY,
            `The description of ${catalog} code ${code}`,
          );
          return LOCALES.map((locale, i) => ({
            catalog,
            code,
            locale,
            display_name: names[i]!,
            description: descriptions[i]!,
          }));
        }),
      )
      .execute();
  }
}

/**
 * The catalogs as the real service serves them: a description for every entry (the empty string where there is
 * none), and the job industries under groups. The codes stored in posts, jobs, companies and events do not change.
 */
export function catalogGroupsAndDescriptions(): Migration {
  return {
    async up(anyDb: Kysely<unknown>) {
      const db = anyDb as unknown as Kysely<DB>;
      await db.schema.alterTable('code_entries').addColumn('parent', 'text').execute();
      await db.schema
        .alterTable('code_labels')
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await writeCatalogs(db);
    },
  };
}
