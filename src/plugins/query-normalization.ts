import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { TSchema } from '@sinclair/typebox';
import { ApiError } from '../shared/api-error.js';
import { addRouteHook } from '../shared/route-hooks.js';

const INT32_MAX = 2_147_483_647;

function normalizeInt(raw: unknown, fallback: number, min: number, max: number): number {
  const text = Array.isArray(raw) ? raw[0] : raw;
  const value = typeof text === 'number' ? text : Number.parseInt(String(text ?? ''), 10);
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/**
 * Before validation: `per_page` (the real service's guides' name) is read as `pageSize`, and the two with different
 * values are a 400; page/pageSize are brought into range (docs/api.md Pagination: normalized, never an error), and
 * array parameters given as comma lists are split, so `a,b` and `x=a&x=b` mean the same.
 */
export const queryNormalizationPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const properties = (route.schema?.querystring as TSchema | undefined)?.properties as
        | Record<string, TSchema>
        | undefined;
      if (!properties) return;
      const arrays = Object.entries(properties)
        .filter(([, s]) => s.type === 'array')
        .map(([name]) => name);
      const sized = 'pageSize' in properties;
      const paginated = sized && 'page' in properties;
      if (!sized && arrays.length === 0) return;
      addRouteHook(
        route,
        'preValidation',
        (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
          const query = request.query as Record<string, unknown>;
          if (sized && query.per_page !== undefined) {
            const alias = paginated ? normalizeInt(query.per_page, 20, 1, 50) : query.per_page;
            const own = paginated ? normalizeInt(query.pageSize, 20, 1, 50) : query.pageSize;
            if (query.pageSize !== undefined && String(alias) !== String(own)) {
              done(
                new ApiError(
                  'C0005',
                  `Query parameters "per_page" (${String(query.per_page)}) and "pageSize" (${String(query.pageSize)}) are the same setting with different values; send one of them`,
                  'per_page',
                ),
              );
              return;
            }
            query.pageSize = query.pageSize ?? query.per_page;
            delete query.per_page;
          }
          if (paginated) {
            query.page = normalizeInt(query.page, 1, 1, INT32_MAX);
            query.pageSize = normalizeInt(query.pageSize, 20, 1, 50);
          }
          for (const name of arrays) {
            const raw = query[name];
            if (raw === undefined) continue;
            const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(','));
            query[name] = values.map((v) => v.trim()).filter((v) => v !== '');
          }
          done();
        },
      );
    });
  },
  { name: 'query-normalization' },
);
