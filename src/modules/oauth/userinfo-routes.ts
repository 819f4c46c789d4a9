import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, Nullable } from '../../schemas/common.js';
import { notFound } from '../../shared/api-error.js';
import type { Links } from '../../shared/links.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import { hasScope } from './scopes.js';

export const UserInfo = Type.Object(
  {
    sub: Type.String({ description: "The user's stable id" }),
    name: Type.String(),
    preferred_username: Type.String({ description: 'Handle' }),
    picture: Nullable(Type.String()),
    profile: Type.String({ description: 'Web address of the profile' }),
    locale: Type.String(),
    updated_at: Type.Integer({ description: 'Seconds since the epoch' }),
    email: Type.Optional(Type.String({ description: 'Only with scope email' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'Only with scope email' })),
  },
  { title: 'UserInfo' },
);

/** GET /oauth/userinfo: OIDC-shaped standard claims of the token's user (scope profile). */
export const userinfoRoutes: FastifyPluginAsyncTypebox<{
  accounts: AccountsRepository;
  links: Links;
  webBaseUrl: string;
}> = async (app, opts) => {
  app.get(
    '/oauth/userinfo',
    {
      config: { bearerScope: 'profile' },
      schema: {
        tags: ['OAuth UserInfo'],
        operationId: 'getOAuthUserInfo',
        summary: 'Claims about the signed-in user',
        description:
          'Requires scope `profile` (or its alias `profile:read`); `email` and `email_verified` need scope `email`.',
        security: [{ bearer: [] }],
        response: { 200: UserInfo, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const token = request.token!;
      const user = await opts.accounts.findUserById(token.userId);
      if (!user) throw notFound.user(token.userId);
      reply.header('Cache-Control', 'no-store');
      return {
        sub: String(user.id),
        name: user.name,
        preferred_username: user.handle,
        picture: opts.links.image(user.image_url),
        profile: `${opts.webBaseUrl}/profiles/${user.handle}`,
        locale: user.locale,
        updated_at: Math.floor(user.updated_at / 1000),
        ...(hasScope(token.scopes, 'email') ? { email: user.email, email_verified: user.email_verified === 1 } : {}),
      };
    },
  );
};
