import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { TSchema } from '@sinclair/typebox';
import { ApiError } from '../shared/api-error.js';
import { addRouteHook } from '../shared/route-hooks.js';

const DIGITS = /^\d{1,16}$/;

/**
 * Integer path parameters (ids) are plain digits. Fastify's coercion turns "1e400" into Infinity, which then passes
 * an integer schema with a maximum, and "1e3" into 1000; both are refused here, before validation, with 400 C0002.
 */
export const pathIntegersPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const properties = (route.schema?.params as TSchema | undefined)?.properties as
        | Record<string, TSchema>
        | undefined;
      const names = Object.entries(properties ?? {})
        .filter(([, s]) => s.type === 'integer')
        .map(([name]) => name);
      if (names.length === 0) return;
      addRouteHook(
        route,
        'preValidation',
        (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
          const params = request.params as Record<string, unknown>;
          for (const name of names) {
            const raw = params[name];
            if (typeof raw === 'string' && !DIGITS.test(raw)) {
              return done(
                new ApiError(
                  'C0002',
                  `Path parameter "${name}" must be a whole number of at most 16 digits, got ${JSON.stringify(raw.slice(0, 40))}`,
                  name,
                ),
              );
            }
          }
          done();
        },
      );
    });
  },
  { name: 'path-integers' },
);
