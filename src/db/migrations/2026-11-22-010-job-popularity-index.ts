import type { Kysely, Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';
import type { DB } from '../schema.js';
import { reindexJobs } from '../../search/search-documents.js';

const BATCH = 500;

/**
 * POPULARITY_DESC without sorting the matches: the hiring jobs indexed a second time, keyed by views
 * (docs/search.md), so the most viewed matching jobs are a walk from the top of that index. Filled from the
 * jobs hiring at the moment the hiring sweep last ran, the state the first index shows.
 */
export function jobPopularityIndex(adapter: DialectAdapter): Migration {
  return {
    async up(db0: Kysely<unknown>) {
      const db = db0 as unknown as Kysely<DB>;
      await db0.schema.alterTable('jobs').addColumn('popularity_key', 'bigint').execute();
      await db0.schema.createIndex('jobs_popularity_key').unique().on('jobs').column('popularity_key').execute();
      await adapter.createSearchIndex(db0, 'job_search_popular');
      const sweep = await db.selectFrom('search_sweeps').select('swept_at').where('name', '=', 'job_hiring').executeTakeFirst();
      const now = sweep ? Number(sweep.swept_at) : Date.now();
      for (let after = 0; ;) {
        const ids = (await db.selectFrom('jobs').select('id').where('id', '>', after).where('search_key', 'is not', null)
          .orderBy('id').limit(BATCH).execute()).map((r) => r.id);
        if (ids.length === 0) return;
        await reindexJobs(db, adapter, ids, now);
        after = ids[ids.length - 1]!;
      }
    },
  };
}
