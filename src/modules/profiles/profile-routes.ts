import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import { callerOf } from '../../shared/caller.js';
import {
  ProfileDetail,
  ProfileHandleParams,
  ProfilePage,
  ProfileSearchQuery,
  ProfileSuggestionList,
  ProfileSuggestionQuery,
} from './profile-schemas.js';
import type { ProfileService } from './profile-service.js';

/**
 * Profile search and reads (app key): public profiles only. Searches and suggestions are kept under the profiles data
 * version, which every profile write and every disabled member moves; a detail is never kept, since each read counts
 * against the app's daily bound of distinct profiles.
 */
export const profileRoutes: FastifyPluginAsyncTypebox<{ profiles: ProfileService }> = async (app, { profiles }) => {
  app.get(
    '/api/v1/profiles',
    {
      config: { auth: 'apiKey', representation: 'profiles', longReads: true },
      schema: {
        tags: ['Profiles'],
        operationId: 'searchProfiles',
        summary: 'Search public profiles',
        description:
          'Members who made their profile public, with the sections they show. Values of one filter combine with OR, different filters with AND. Results stop at the 1,000th: a page starting past it is 400 C0005.',
        security: [{ apiKey: [] }],
        querystring: ProfileSearchQuery,
        response: { 200: ProfilePage, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => profiles.search(request.query),
  );

  app.get(
    '/api/v1/profiles/suggestions',
    {
      config: { auth: 'apiKey', representation: 'profiles' },
      schema: {
        tags: ['Profiles'],
        operationId: 'suggestProfileSkills',
        summary: 'Complete a half-typed skill',
        description: 'Skills of public profiles that begin with `prefix`, most listed first. Never names a member.',
        security: [{ apiKey: [] }],
        querystring: ProfileSuggestionQuery,
        response: { 200: ProfileSuggestionList, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => profiles.suggestions(request.query.prefix, request.query.pageSize ?? 10),
  );

  app.get(
    '/api/v1/profiles/:handle',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Profiles'],
        operationId: 'getProfile',
        summary: 'Read a public profile',
        description:
          'The sections the member shows; a hidden one is absent. A profile that is private, of a disabled member or never written is 404 C0008, as a handle nobody has. Each app reads at most PROFILE_READS_PER_DAY distinct profiles a UTC day (429 C0010 with `X-SVC-RateLimit-Scope: profile.read`); one read again that day is not counted again.',
        security: [{ apiKey: [] }],
        params: ProfileHandleParams,
        response: { 200: ProfileDetail, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request, reply) => {
      const profile = await profiles.detail(request.params.handle, callerOf(request) ?? 'anonymous');
      reply.header('Cache-Control', 'private, no-store');
      return profile;
    },
  );
};
