import type { Kysely, Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * The console's request log: each app's latest API requests, for its owner to debug a failing call. A row holds
 * what the request was and how it ended (operation, status, error code, time taken, request id): never a body, a
 * key, a token or a query. Kept bounded per app by the writer (src/modules/apps/request-log.ts).
 */
export function appRequestLog(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await adapter
        .autoId(db.schema.createTable('app_requests') as never)
        .addColumn('app_id', 'bigint', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('duration_ms', 'real', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('app_requests_app').on('app_requests').columns(['app_id', 'id']).execute();
    },
  };
}
