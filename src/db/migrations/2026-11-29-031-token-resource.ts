import type { Kysely, Migration } from 'kysely';

/**
 * The resource an authorization is for (RFC 8707): null for the HTTP API, the MCP endpoint's URL for a grant an agent
 * asked for it. The code carries it from the authorization request to the token request, the grant to every refresh,
 * and it becomes the access tokens' audience.
 */
export function tokenResource(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('oauth_authorization_codes').addColumn('resource', 'text').execute();
      await db.schema.alterTable('oauth_grants').addColumn('resource', 'text').execute();
    },
  };
}
