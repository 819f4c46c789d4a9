import fp from 'fastify-plugin';
import type { TSchema } from '@sinclair/typebox';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Query parameters declared as arrays: accept repeats and comma lists. Filled in from the schema. */
    arrayQueryParams?: string[];
    /** The route takes page/pageSize: normalize them, never reject them. Filled in from the schema. */
    paginated?: boolean;
  }
}

const INT32_MAX = 2_147_483_647;

function normalizeInt(raw: unknown, fallback: number, min: number, max: number): number {
  const text = Array.isArray(raw) ? raw[0] : raw;
  const value = typeof text === 'number' ? text : Number.parseInt(String(text ?? ''), 10);
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/**
 * Before validation: page/pageSize are brought into range (SPEC.md Pagination: normalized, never an
 * error), and array parameters given as comma lists are split, so `a,b` and `x=a&x=b` mean the same.
 */
export const queryNormalizationPlugin = fp(async (app) => {
  app.addHook('onRoute', (route) => {
    const properties = (route.schema?.querystring as TSchema | undefined)?.properties as Record<string, TSchema> | undefined;
    if (!properties) return;
    route.config = {
      ...(route.config ?? {}),
      arrayQueryParams: Object.entries(properties).filter(([, s]) => s.type === 'array').map(([name]) => name),
      paginated: 'page' in properties && 'pageSize' in properties,
    };
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const config = request.routeOptions.config;
    if (!config.paginated && !config.arrayQueryParams?.length) return done();
    const query = request.query as Record<string, unknown>;
    if (config.paginated) {
      query.page = normalizeInt(query.page, 1, 1, INT32_MAX);
      query.pageSize = normalizeInt(query.pageSize, 20, 1, 50);
    }
    for (const name of config.arrayQueryParams ?? []) {
      const raw = query[name];
      if (raw === undefined) continue;
      const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(','));
      query[name] = values.map((v) => v.trim()).filter((v) => v !== '');
    }
    done();
  });
}, { name: 'query-normalization' });
