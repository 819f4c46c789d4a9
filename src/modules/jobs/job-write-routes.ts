import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ImageUploads } from '../../media/image-uploads.js';
import { errorResponses, Page, PageQuery, UPLOAD_WRITE_ERRORS, WRITE_ERRORS } from '../../schemas/common.js';
import { MultipartBody } from '../../schemas/multipart.js';
import { ApiError } from '../../shared/api-error.js';
import { fingerprint, type Idempotency } from '../../db/idempotency.js';
import { bodyStage, checkJson, readMultipart } from '../../shared/multipart-body.js';
import { IdempotencyHeaders } from '../../schemas/common.js';
import { JobIdParams } from './job-schemas.js';
import {
  JobCompanyQuery,
  JobCreateRequest,
  JobPublishRequest,
  JobUpdateQuery,
  JobUpdateRequest,
  ManagedJobItem,
  ManagedJobSummary,
  type ManagedJobSummaryDto,
} from './job-write-schemas.js';
import type { JobWriteService } from './job-write-service.js';

const IMAGES = { images: { max: 10, description: 'Job images: 0 to 10 JPEG, PNG, WebP or GIF files' } };

/** Job postings managed for a company (scope job:write), and the accessible-jobs list (job:manage:read). */
export const jobWriteRoutes: FastifyPluginAsyncTypebox<{
  jobs: JobWriteService;
  idempotency: Idempotency;
  limits: { maxRequestBytes: number; maxFileBytes: number };
  uploads: ImageUploads;
}> = async (app, opts) => {
  const { jobs, idempotency, limits, uploads } = opts;
  const security = [{ bearer: [] }];
  const read = (request: Parameters<typeof readMultipart>[0]) =>
    readMultipart(request, { jsonPart: 'request', fileParts: { images: 10 }, ...limits });
  const createBody = bodyStage(async (request) => {
    const { json, files } = await read(request);
    if (json === undefined) throw new ApiError('C0002', 'Part "request" is required', 'request');
    return {
      input: checkJson(JobCreateRequest, json, 'request'),
      images: await uploads.check(files.images ?? [], 'images', request.token!.clientId),
    };
  });
  const updateBody = bodyStage(async (request) => {
    const { json, files } = await read(request);
    const images = files.images ?? [];
    if (json === undefined && images.length === 0)
      throw new ApiError('C0002', 'Send a "request" part with the fields to change, or "images"', 'request');
    return {
      input: json === undefined ? {} : checkJson(JobUpdateRequest, json, 'request'),
      images: await uploads.check(images, 'images', request.token!.clientId),
    };
  });

  app.post(
    '/api/v1/jobs/platform',
    {
      config: { bearerScope: 'job:write', rateLimitOperation: 'job.create' },
      preHandler: createBody.preHandler,
      schema: {
        tags: ['Jobs'],
        operationId: 'createJob',
        summary: 'Create a job posting (as a draft)',
        description:
          'The service takes the applications. Needs ENT_JOB_CREATE at the company named by `companyId`. Publish it with PUT /api/v1/jobs/{jobId}/active.',
        security,
        consumes: ['multipart/form-data'],
        querystring: JobCompanyQuery,
        headers: IdempotencyHeaders,
        body: MultipartBody(JobCreateRequest, IMAGES, 'JobCreateMultipart'),
        response: { 201: ManagedJobSummary, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { input, images } = createBody.of(request);
      const route = `POST /api/v1/jobs/platform?companyId=${request.query.companyId ?? ''}`;
      const created = (job: ManagedJobSummaryDto) => ({
        status: 201,
        body: job,
        location: `/api/v1/jobs/${job.jobId}`,
      });
      return idempotency.respond(request, reply, fingerprint(route, input, images), {
        create: () => jobs.create(request.token!.userId, request.query.companyId, input, images),
        replay: (jobId) => jobs.created(Number(jobId)),
        answer: created,
      });
    },
  );

  app.patch(
    '/api/v1/jobs/:jobId',
    {
      config: { bearerScope: 'job:write', rateLimitOperation: 'job.update' },
      preHandler: updateBody.preHandler,
      schema: {
        tags: ['Jobs'],
        operationId: 'updatePlatformJob',
        summary: 'Update a job posting (only the fields sent change)',
        description:
          "PLATFORM jobs only. Images, when sent, replace the job's images. Needs ENT_JOB_UPDATE company-wide or on the job.",
        security,
        consumes: ['multipart/form-data'],
        params: JobIdParams,
        querystring: JobUpdateQuery,
        body: MultipartBody(JobUpdateRequest, IMAGES, 'JobUpdateMultipart'),
        response: { 200: ManagedJobSummary, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request) => {
      const { input, images } = updateBody.of(request);
      return jobs.update(request.token!.userId, request.params.jobId, request.query.companyId, input, images);
    },
  );

  app.delete(
    '/api/v1/jobs/:jobId',
    {
      config: { bearerScope: 'job:write', rateLimitOperation: 'job.delete' },
      schema: {
        tags: ['Jobs'],
        operationId: 'deleteJob',
        summary: 'Delete a job posting (soft)',
        security,
        params: JobIdParams,
        querystring: JobCompanyQuery,
        response: { 204: Type.Null({ description: 'Deleted' }), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await jobs.remove(request.token!.userId, request.params.jobId, request.query.companyId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/v1/jobs/:jobId/active',
    {
      config: { bearerScope: 'job:write', rateLimitOperation: 'job.publish' },
      schema: {
        tags: ['Jobs'],
        operationId: 'publishJob',
        summary: 'Publish a draft or finished job posting',
        description:
          'Dates are in the service time zone: the job opens at the start of startDate and closes at the end of endDate (omit endDate for an always-open job).',
        security,
        params: JobIdParams,
        querystring: JobCompanyQuery,
        body: JobPublishRequest,
        response: { 200: ManagedJobSummary, ...WRITE_ERRORS },
      },
    },
    async (request) => jobs.publish(request.token!.userId, request.params.jobId, request.query.companyId, request.body),
  );

  app.delete(
    '/api/v1/jobs/:jobId/active',
    {
      config: { bearerScope: 'job:write', rateLimitOperation: 'job.disable' },
      schema: {
        tags: ['Jobs'],
        operationId: 'disableJob',
        summary: 'Deactivate a published job posting (status finish)',
        security,
        params: JobIdParams,
        querystring: JobCompanyQuery,
        response: { 200: ManagedJobSummary, ...WRITE_ERRORS },
      },
    },
    async (request) => jobs.deactivate(request.token!.userId, request.params.jobId, request.query.companyId),
  );

  app.get(
    '/api/v1/companies/:companyId/jobs/accessible',
    {
      config: { bearerScope: 'job:manage:read' },
      schema: {
        tags: ['Jobs'],
        operationId: 'listAccessibleCompanyJobs',
        summary: 'Company jobs the user may see',
        description:
          'With ENT_JOB_LIST every job of the company (drafts, published and finished; never deleted ones); otherwise only jobs on which the user holds ENT_JOB_VIEW.',
        security,
        params: Type.Object({
          companyId: Type.String({ maxLength: 255, pattern: '^[A-Za-z0-9_-]+$', description: 'Company handle' }),
        }),
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: Page(ManagedJobItem, 'ManagedJobPage'), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      jobs.accessible(request.token!.userId, request.params.companyId, request.query.page, request.query.pageSize),
  );
};
