import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import type { PostService } from './post-service.js';
import { PostDetail, PostIdParams, PostPage, PostSearchQuery } from './post-schemas.js';

export const postRoutes: FastifyPluginAsyncTypebox<{ posts: PostService }> = async (app, { posts }) => {
  app.get('/api/v1/posts', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['Posts'],
      summary: 'Search posts',
      description: 'Keyword search over post bodies and their translations, with filters. Korean, Japanese and Chinese keywords match inside words.',
      security: [{ apiKey: [] }],
      querystring: PostSearchQuery,
      response: { 200: PostPage, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
    },
  }, async (request) => posts.search(request.query, null, request.locale));

  app.get('/api/v1/posts/:postId', {
    config: { auth: 'apiKey' },
    schema: {
      tags: ['Posts'],
      summary: 'Read a post',
      description: 'The post with mentions and its repost source expanded one level.',
      security: [{ apiKey: [] }],
      params: PostIdParams,
      response: { 200: PostDetail, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
    },
  }, async (request) => posts.detail(request.params.postId, null, request.locale));
};
