import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from '../shared/route-hooks.js';

/**
 * Multipart uploads. Parts are streamed by the handlers (see shared/multipart-body.ts); the body schema
 * of a multipart route only documents the parts, so validation is given an empty object to check.
 */
export const multipartPlugin = fp(
  async (app, opts: { maxImageBytes: number }) => {
    await app.register(multipart, {
      limits: { fileSize: opts.maxImageBytes, files: 20, fields: 20, parts: 40, fieldSize: 1024 * 1024 },
      throwFileSizeLimit: true,
    });
    app.addHook('onRoute', (route) => {
      const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes;
      if (!consumes?.includes('multipart/form-data')) return;
      addRouteHook(route, 'preValidation', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
        if (request.body === undefined || request.body === null) request.body = {};
        done();
      });
    });
  },
  { name: 'multipart' },
);
