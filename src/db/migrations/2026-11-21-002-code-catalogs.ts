import type { Kysely, Migration } from 'kysely';
import { CATALOG_DATA, CATALOG_NAMES, LOCALES } from '../../shared/catalogs-2026-11-28.js';
import type { DB } from '../schema.js';

/**
 * Seeds the code catalogs and their labels in the 11 locales: from the frozen copy of 2026-11-28 (it first read the
 * live catalogs; 019 and 025 write them again on every database that runs it, so the copy changes no outcome).
 */
export function seedCodeCatalogs(): Migration {
  return {
    async up(anyDb: Kysely<unknown>) {
      const db = anyDb as unknown as Kysely<DB>;
      for (const catalog of CATALOG_NAMES) {
        const entries = CATALOG_DATA[catalog];
        await db
          .insertInto('code_entries')
          .values(entries.map(([code], position) => ({ catalog, code, position })))
          .execute();
        const labels = entries.flatMap(([code, line]) => {
          const names = line.split('|');
          if (names.length !== LOCALES.length)
            throw new Error(`Catalog ${catalog} code ${code} has ${names.length} labels`);
          return LOCALES.map((locale, i) => ({ catalog, code, locale, display_name: names[i]! }));
        });
        await db.insertInto('code_labels').values(labels).execute();
      }
    },
  };
}
