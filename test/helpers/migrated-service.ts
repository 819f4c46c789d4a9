import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { AccountsRepository } from '../../src/modules/accounts/accounts-repository.js';
import { AppKeyService } from '../../src/modules/accounts/app-key-service.js';
import { testConfig } from './test-app.js';

/**
 * The service on a database a test migrated, its clock at `now`, and `get`: a GET with a new app key that must be
 * answered 200, returning the body. For the tests that read data stored before a migration through the API.
 */
export async function serviceOn(database: Database, now: number) {
  const app = await buildApp({ config: testConfig(), database, clock: () => now, logger: false });
  const { apiKey } = await new AppKeyService(new AccountsRepository(database.db, () => now), 0).createApp('reader');
  return {
    app,
    apiKey,
    get: async (url: string): Promise<any> => {
      const res = await app.inject({ method: 'GET', url, headers: { 'x-svc-api-key': apiKey } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
}
