import type { Area, Infrastructure } from '../../infrastructure.js';
import { CodeRepository } from './code-repository.js';
import { codeRoutes } from './code-routes.js';
import { CodeService } from './code-service.js';

/** The code catalogs (GET /api/v1/codes/…), loaded once: they change only by migration. Jobs and events check codes with it. */
export async function codesArea(infra: Infrastructure): Promise<Area & { codes: CodeService }> {
  const codes = new CodeService(new CodeRepository(infra.database.db));
  await codes.load();
  return {
    codes,
    routes: async (app) => {
      await app.register(codeRoutes, { codes });
    },
  };
}
