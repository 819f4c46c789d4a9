import type { FastifyRequest } from 'fastify';
import { dataVersionOf } from '../../plugins/representation-cache.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import type { PostService } from './post-service.js';
import { PostDetail, PostIdParams, PostPage, PostSearchQuery } from './post-schemas.js';

const viewerOf = (request: FastifyRequest) => (request.token ? { userId: request.token.userId } : null);

export const postRoutes: FastifyPluginAsyncTypebox<{ posts: PostService }> = async (app, { posts }) => {
  app.get(
    '/api/v1/posts',
    {
      config: { auth: 'apiKey', optionalBearer: true, representation: 'posts', longReads: true },
      schema: {
        tags: ['Posts'],
        operationId: 'searchPosts',
        summary: 'Search posts',
        security: [{ apiKey: [] }, { apiKey: [], bearer: [] }],
        querystring: PostSearchQuery,
        response: { 200: PostPage, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
        description:
          "Keyword search over post bodies and their translations, with filters. Korean, Japanese and Chinese keywords match inside words. A Bearer token (optional) makes `owned` true for the caller's posts.",
      },
    },
    async (request) => posts.search(request.query, viewerOf(request), request.locale, dataVersionOf(request)),
  );

  app.get(
    '/api/v1/posts/:postId',
    {
      config: { auth: 'apiKey', optionalBearer: true, representation: 'posts' },
      schema: {
        tags: ['Posts'],
        operationId: 'getPost',
        summary: 'Read a post',
        description: 'The post with mentions and its repost source expanded one level.',
        security: [{ apiKey: [] }, { apiKey: [], bearer: [] }],
        params: PostIdParams,
        response: { 200: PostDetail, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => posts.detail(request.params.postId, viewerOf(request), request.locale, dataVersionOf(request)),
  );
};
