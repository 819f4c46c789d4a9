import type { Kysely, Migration } from 'kysely';

/**
 * The web origins an app's key may be used from in a browser (`["https://app.example"]`, JSON text): the console
 * sets them; CORS admits them and the key check refuses the app's key from any other browser origin.
 * An app stored before has none (`[]`): its key keeps working from servers, and from CORS_ORIGINS.
 */
export function appWebOrigins(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('apps')
        .addColumn('web_origins', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
  };
}
