import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, Nullable, Page, pageOf, PageQuery, StringEnum } from '../../schemas/common.js';
import { ApiError } from '../../shared/api-error.js';
import type { Links } from '../../shared/links.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { PermissionService } from '../accounts/permission-service.js';
import { ALL_CAPABILITIES, RESOURCE_TYPES } from '../accounts/roles.js';

const Capabilities = Type.Array(StringEnum(ALL_CAPABILITIES), {
  description: 'Open API operations the user may perform',
});

export const CompanyPermissions = Type.Object(
  {
    companies: Type.Array(
      Type.Object(
        {
          company: Type.Object({ permalink: Type.String(), name: Type.String(), logoUrl: Nullable(Type.String()) }),
          capabilities: Capabilities,
        },
        { title: 'CompanyPermission' },
      ),
    ),
  },
  { title: 'CompanyPermissions' },
);

const ResourceRole = Type.Object(
  {
    resourceType: StringEnum(RESOURCE_TYPES),
    resourceId: Type.String(),
    capabilities: Capabilities,
  },
  { title: 'ResourceRole' },
);

const ORDER = new Map<string, number>(ALL_CAPABILITIES.map((c, i) => [c, i]));
const sorted = (caps: Set<string>) =>
  [...caps].sort((a, b) => ORDER.get(a)! - ORDER.get(b)!) as Array<(typeof ALL_CAPABILITIES)[number]>;

/** What the signed-in user may do at their companies (scope company:manage:read). */
export const meRoutes: FastifyPluginAsyncTypebox<{
  permissions: PermissionService;
  accounts: AccountsRepository;
  links: Links;
}> = async (app, opts) => {
  const security = [{ bearer: [] }];

  app.get(
    '/api/v1/me/company-permissions',
    {
      config: { bearerScope: 'company:manage:read' },
      schema: {
        tags: ['Me'],
        operationId: 'getMyCompanyPermissions',
        summary: 'Companies where the user holds company-wide roles',
        description:
          'Each with the capabilities available there. Companies where the user holds only resource-level roles are left out.',
        security,
        response: { 200: CompanyPermissions, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const companies = await opts.permissions.companiesOf(request.token!.userId);
      return {
        companies: companies.map((c) => ({
          company: { permalink: c.handle, name: c.name, logoUrl: opts.links.image(c.logoUrl) },
          capabilities: sorted(c.capabilities),
        })),
      };
    },
  );

  app.get(
    '/api/v1/me/company-permissions/:companyPermalink/resource-roles',
    {
      config: { bearerScope: 'company:manage:read' },
      schema: {
        tags: ['Me'],
        operationId: 'getMyResourceRoles',
        summary: "The user's roles on single jobs and events of a company",
        description:
          'With `resourceId` (and `resourceType`): a precise check, 0 or 1 items. Without: the resources with explicitly granted roles, paged. `items` is always present.',
        security,
        params: Type.Object({ companyPermalink: Type.String({ maxLength: 255, pattern: '^[A-Za-z0-9_-]+$' }) }),
        querystring: Type.Object({
          resourceType: Type.Optional(StringEnum(RESOURCE_TYPES)),
          resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          ...PageQuery,
        }),
        response: { 200: Page(ResourceRole, 'ResourceRolePage'), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { companyPermalink } = request.params;
      const { resourceType, resourceId, page, pageSize } = request.query;
      if (resourceId !== undefined && resourceType === undefined) {
        throw new ApiError('C0005', 'Query parameter "resourceType" is required with "resourceId"', 'resourceType');
      }
      const companyId = await opts.accounts.companyIdByHandle(companyPermalink);
      if (companyId === undefined)
        throw new ApiError('C0008', `Company ${companyPermalink} does not exist`, 'companyPermalink');
      const all = await opts.permissions.resourceRolesAt(request.token!.userId, companyId, resourceType, resourceId);
      const items = all
        .slice((page - 1) * pageSize, page * pageSize)
        .map((r) => ({ ...r, capabilities: sorted(r.capabilities) }));
      return pageOf(items, all.length, page, pageSize);
    },
  );
};
