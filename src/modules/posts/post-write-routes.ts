import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ImageUploads } from '../../media/image-uploads.js';
import { UPLOAD_WRITE_ERRORS, WRITE_ERRORS } from '../../schemas/common.js';
import { MultipartBody } from '../../schemas/multipart.js';
import { ApiError } from '../../shared/api-error.js';
import { fingerprint, type Idempotency } from '../../db/idempotency.js';
import { bodyStage, checkJson, readMultipart } from '../../shared/multipart-body.js';
import { IdempotencyHeaders } from '../../schemas/common.js';
import { PostIdParams } from './post-schemas.js';
import { PostWriteRequest, PostWriteResponse, type PostWriteResponseDto } from './post-write-schemas.js';
import type { PostWriteService } from './post-write-service.js';

const IMAGES = { images: { max: 10, description: 'Post images: 0 to 10 JPEG, PNG, WebP or GIF files (create only)' } };

/** Posts of the signed-in user (scope post:write). */
export const postWriteRoutes: FastifyPluginAsyncTypebox<{
  posts: PostWriteService;
  idempotency: Idempotency;
  limits: { maxRequestBytes: number; maxFileBytes: number };
  uploads: ImageUploads;
}> = async (app, opts) => {
  const { posts, idempotency, limits, uploads } = opts;
  const security = [{ bearer: [] }];
  const body = bodyStage(async (request) => {
    const { json, files } = await readMultipart(request, { jsonPart: 'request', fileParts: { images: 10 }, ...limits });
    if (json === undefined) throw new ApiError('C0002', 'Part "request" is required', 'request');
    return {
      input: checkJson(PostWriteRequest, json, 'request'),
      images: await uploads.check(files.images ?? [], 'images', request.token!.clientId),
    };
  });

  app.post(
    '/api/v1/posts',
    {
      config: { bearerScope: 'post:write', rateLimitOperation: 'post.create' },
      preHandler: body.preHandler,
      schema: {
        tags: ['Posts'],
        operationId: 'createPost',
        summary: 'Create a post for the user',
        description:
          'Multipart: a JSON `request` part (`text`, `og.link`, `repostedPostId`) and 0 to 10 `images`. The service fetches the Open Graph data of `og.link` itself; when that fails the card keeps the link with null fields. `@handle` mentions are resolved.',
        security,
        consumes: ['multipart/form-data'],
        headers: IdempotencyHeaders,
        body: MultipartBody(PostWriteRequest, IMAGES, 'PostCreateMultipart'),
        response: { 201: PostWriteResponse, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { input, images } = body.of(request);
      const created = (post: PostWriteResponseDto) => ({
        status: 201,
        body: post,
        location: `/api/v1/posts/${post.postId}`,
      });
      return idempotency.respond(request, reply, fingerprint('POST /api/v1/posts', input, images), {
        create: () => posts.create(request.token!.userId, input, images),
        replay: (postId) => posts.created(Number(postId)),
        answer: created,
      });
    },
  );

  app.put(
    '/api/v1/posts/:postId',
    {
      config: { bearerScope: 'post:write', rateLimitOperation: 'post.update' },
      preHandler: body.preHandler,
      schema: {
        tags: ['Posts'],
        operationId: 'updatePost',
        summary: "Update the body and Open Graph data of the user's own post",
        description:
          'Multipart like create. `text` replaces the body (and its mentions; translations of the old body are dropped); `og` replaces the card, `og: null` removes it. Images cannot be changed.',
        security,
        consumes: ['multipart/form-data'],
        params: PostIdParams,
        body: MultipartBody(PostWriteRequest, IMAGES, 'PostUpdateMultipart'),
        response: { 200: PostWriteResponse, ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { input, images } = body.of(request);
      return posts.update(request.token!.userId, request.params.postId, input, images);
    },
  );

  app.delete(
    '/api/v1/posts/:postId',
    {
      config: { bearerScope: 'post:write', rateLimitOperation: 'post.delete' },
      schema: {
        tags: ['Posts'],
        operationId: 'deletePost',
        summary: "Delete the user's own post",
        description: 'Its images, mentions, translations and card go with it; the images stop being served.',
        security,
        params: PostIdParams,
        response: { 204: Type.Null({ description: 'Deleted; empty body' }), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await posts.remove(request.token!.userId, request.params.postId);
      return reply.status(204).send(null);
    },
  );
};
