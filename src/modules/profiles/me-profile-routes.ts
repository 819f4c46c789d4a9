import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../schemas/common.js';
import { hasScope } from '../oauth/scopes.js';
import { MyProfile, ProfileUpdate } from './profile-schemas.js';
import type { ProfileService } from './profile-service.js';
import type { ProfileWriteService } from './profile-write-service.js';

/** The signed-in member's own profile: read (profile:read), changed or deleted (profile:write). */
export const meProfileRoutes: FastifyPluginAsyncTypebox<{
  profiles: ProfileService;
  writes: ProfileWriteService;
}> = async (app, { profiles, writes }) => {
  const security = [{ bearer: [] }];
  const mine = (request: { token: { userId: number; scopes: string[] } | null }) =>
    profiles.mine(request.token!.userId, hasScope(request.token!.scopes, 'email'));

  app.get(
    '/api/v1/me/profile',
    {
      config: { bearerScope: 'profile:read' },
      schema: {
        tags: ['Me'],
        operationId: 'getMyProfile',
        summary: "The user's own profile, every section and its visibility",
        description:
          'Scope `profile:read` (or its alias `profile`); `email` needs scope `email`. A member who never wrote a profile gets the empty one, private.',
        security,
        response: { 200: MyProfile, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return mine(request);
    },
  );

  app.patch(
    '/api/v1/me/profile',
    {
      config: { bearerScope: 'profile:write', rateLimitOperation: 'profile.update' },
      schema: {
        tags: ['Me'],
        operationId: 'updateMyProfile',
        summary: "Change the user's profile (only the fields sent change)",
        description:
          'Scope `profile:write`. Making it PRIVATE or hiding a section takes it from search, reads and the change feed at the next request on every instance.',
        security,
        body: ProfileUpdate,
        response: { 200: MyProfile, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await writes.update(request.token!.userId, request.body);
      reply.header('Cache-Control', 'no-store');
      return mine(request);
    },
  );

  app.delete(
    '/api/v1/me/profile',
    {
      config: { bearerScope: 'profile:write', rateLimitOperation: 'profile.update' },
      schema: {
        tags: ['Me'],
        operationId: 'deleteMyProfile',
        summary: "Delete the user's profile",
        description:
          'Scope `profile:write`. The account stays; the profile is gone from search and reads, and its changes in the feed lose their content (`profile.deleted`).',
        security,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await writes.remove(request.token!.userId);
      return reply.code(204).send(null);
    },
  );
};
