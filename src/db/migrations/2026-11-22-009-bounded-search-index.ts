import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';
import type { DB } from '../schema.js';
import { isHiring, jobDocument, jobDocumentParts, jobSearchKey, postDocument, postSearchKey } from '../../search/search-documents.js';
import { groupBy } from '../../shared/group.js';

const BATCH = 2_000;

async function rebuildPosts(db: Kysely<DB>, adapter: DialectAdapter): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db.selectFrom('posts').select(['id', 'content', 'image_count', 'has_og', 'author_company_id', 'posted_at'])
      .where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    const translations = await db.selectFrom('post_translations').select(['post_id', 'content']).where('post_id', 'in', ids).execute();
    const byPost = groupBy(translations, (t) => t.post_id);
    await adapter.insertSearchDocuments(db, 'post_search', rows.map((row) => ({
      id: postSearchKey(row.posted_at, row.id),
      tokens: postDocument(row, (byPost.get(row.id) ?? []).map((t) => t.content)),
    })));
    after = ids[ids.length - 1]!;
  }
}

async function rebuildJobs(db: Kysely<DB>, adapter: DialectAdapter, now: number): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db.selectFrom('jobs').innerJoin('companies', 'companies.id', 'jobs.company_id')
      .select(['jobs.id', 'jobs.title', 'jobs.subtitle', 'jobs.description', 'jobs.status', 'jobs.job_category', 'jobs.work_type',
        'jobs.company_id', 'companies.size as company_size', 'jobs.start_at', 'jobs.end_at'])
      .where('jobs.id', '>', after).where('jobs.status', '=', 'published').orderBy('jobs.id').limit(BATCH).execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const hiring = rows.filter((job) => isHiring(job, now));
    if (hiring.length === 0) continue;
    const parts = await jobDocumentParts(db, hiring.map((r) => r.id));
    await adapter.insertSearchDocuments(db, 'job_search', hiring.map((job) => ({ id: jobSearchKey(job.start_at!, job.id), tokens: jobDocument(job, parts) })));
    for (const job of hiring) await db.updateTable('jobs').set({ search_key: jobSearchKey(job.start_at!, job.id) }).where('id', '=', job.id).execute();
  }
}

/**
 * Search whose cost does not grow with the matches it does not return (docs/search.md): both full-text
 * indexes rebuilt with every CJK character as a term of its own and with facet tokens for every filter; posts
 * indexed under a search key in posting order, hiring jobs under one in recruiting-start order; the state of
 * the jobs' hiring sweep. Existing rows are all carried over: the indexes are rebuilt from them.
 */
export function boundedSearchIndex(adapter: DialectAdapter): Migration {
  return {
    async up(db0: Kysely<unknown>) {
      const db = db0 as unknown as Kysely<DB>;
      const now = Date.now();
      await db0.schema.alterTable('posts').addColumn('search_key', 'bigint').execute();
      await sql`UPDATE posts SET search_key = posted_at * 1024 + (id % 1024)`.execute(db);
      await db0.schema.createIndex('posts_search_key').unique().on('posts').column('search_key').execute();
      await db0.schema.alterTable('jobs').addColumn('search_key', 'bigint').execute();
      await db0.schema.createIndex('jobs_search_key').unique().on('jobs').column('search_key').execute();
      // The hiring sweep finds the jobs whose recruiting window opened or closed since it last ran through the
      // indexes jobs_status_start (migration 001) and jobs_status_end (migration 006).
      await db0.schema.createTable('search_sweeps')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('swept_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('search_sweeps').values({ name: 'job_hiring', swept_at: now }).execute();
      for (const index of ['post_search', 'job_search'] as const) {
        await adapter.dropSearchIndex(db0, index);
        await adapter.createSearchIndex(db0, index);
      }
      await rebuildPosts(db, adapter);
      await rebuildJobs(db, adapter, now);
    },
  };
}
