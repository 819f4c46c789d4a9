import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ImageUploads } from '../../media/image-uploads.js';
import { UPLOAD_WRITE_ERRORS } from '../../schemas/common.js';
import { MultipartBody } from '../../schemas/multipart.js';
import { ApiError } from '../../shared/api-error.js';
import { bodyStage, checkJson, readMultipart } from '../../shared/multipart-body.js';
import { CompanyIdParams } from './company-schemas.js';
import { CompanyUpdateRequest, CompanyWriteResponse } from './company-write-schemas.js';
import type { CompanyWriteService } from './company-write-service.js';

const LOGO = { logo: { max: 1, description: 'The new logo: JPEG, PNG, WebP or GIF' } };

/** A company kept by its people: PATCH with scope company:write and ENT_COMPANY_EDIT. */
export const companyWriteRoutes: FastifyPluginAsyncTypebox<{
  companies: CompanyWriteService;
  limits: { maxRequestBytes: number; maxFileBytes: number };
  uploads: ImageUploads;
}> = async (app, { companies, limits, uploads }) => {
  const updateBody = bodyStage(async (request) => {
    const { json, files } = await readMultipart(request, { jsonPart: 'request', fileParts: { logo: 1 }, ...limits });
    const [logo] = await uploads.check(files.logo ?? [], 'logo', request.token!.clientId);
    if (json === undefined && !logo)
      throw new ApiError('C0002', 'Send a "request" part with the fields to change, or a "logo"', 'request');
    return { input: json === undefined ? {} : checkJson(CompanyUpdateRequest, json, 'request'), logo };
  });

  app.patch(
    '/api/v1/companies/:companyId',
    {
      config: { bearerScope: 'company:write', rateLimitOperation: 'company.update' },
      preHandler: updateBody.preHandler,
      schema: {
        tags: ['Companies'],
        operationId: 'updateCompany',
        summary: "Update a company's profile (only the fields sent change)",
        description:
          'Multipart: a JSON `request` part and/or a `logo` that replaces the current one. Needs ENT_COMPANY_EDIT at the company (OWNER, ADMIN). The name and handle are not changed here. Jobs, posts and events show the new logo at the next read; the change feed and webhooks say `company.updated`.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        params: CompanyIdParams,
        body: MultipartBody(CompanyUpdateRequest, LOGO, 'CompanyUpdateMultipart'),
        response: { 200: CompanyWriteResponse, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request) => {
      const { input, logo } = updateBody.of(request);
      return companies.update(request.token!.userId, request.params.companyId, input, logo);
    },
  );
};
