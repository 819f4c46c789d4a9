import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { ErrorResponse } from '../schemas/common.js';

/** The OpenAPI 3.1 document, built from the route schemas, at /openapi.json, and a reference at /docs. */
export const openApiPlugin = fp(async (app, opts: { publicBaseUrl: string }) => {
  app.addSchema(ErrorResponse);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Jobs, Events and Posts Open API',
        version: '1.0 beta',
        description:
          'Search and read job postings, posts and events with an app key; act for a user through OAuth 2.0. ' +
          'Every non-2xx response under /api/v1 has the ErrorResponse body.',
      },
      servers: [{ url: opts.publicBaseUrl }],
      tags: [
        { name: 'Posts' }, { name: 'Jobs' }, { name: 'Events' }, { name: 'Codes' }, { name: 'Me' },
        { name: 'OAuth Authorization' }, { name: 'OAuth Token' }, { name: 'OAuth UserInfo' }, { name: 'Service' },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-SVC-API-Key', description: 'App key: `svck_` followed by 32 base62 characters' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OAuth 2.0 access token (RFC 9068 JWT)' },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}, { name: 'openapi' });
