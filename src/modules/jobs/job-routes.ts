import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dataVersionOf } from '../../plugins/representation-cache.js';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import {
  JobDetail,
  JobIdParams,
  JobPage,
  JobSearchQuery,
  JobSuggestionList,
  JobSuggestionQuery,
} from './job-schemas.js';
import type { JobService } from './job-service.js';

export const jobRoutes: FastifyPluginAsyncTypebox<{ jobs: JobService }> = async (app, { jobs }) => {
  app.get(
    '/api/v1/jobs',
    {
      config: { auth: 'apiKey', representation: 'jobs', longReads: true },
      schema: {
        tags: ['Jobs'],
        operationId: 'searchJobs',
        summary: 'Search jobs',
        description: 'Only actively hiring jobs. Values of one filter combine with OR, different filters with AND.',
        security: [{ apiKey: [] }],
        querystring: JobSearchQuery,
        response: { 200: JobPage, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { page, validUntil } = await jobs.search(request.query, request.locale, dataVersionOf(request));
      request.representationValidUntil = validUntil;
      return page;
    },
  );

  app.get(
    '/api/v1/jobs/suggestions',
    {
      config: { auth: 'apiKey', representation: 'jobs' },
      schema: {
        tags: ['Jobs'],
        operationId: 'suggestJobSearches',
        summary: 'Complete a half-typed search',
        description:
          'Titles, company names and title words of the jobs hiring now that begin with `prefix`, most jobs first (then by text). Meant to be called as the user types.',
        security: [{ apiKey: [] }],
        querystring: JobSuggestionQuery,
        response: { 200: JobSuggestionList, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { items, validUntil } = await jobs.suggestions(
        request.query.prefix,
        request.query.pageSize ?? 10,
        dataVersionOf(request),
      );
      request.representationValidUntil = validUntil;
      return items;
    },
  );

  app.get(
    '/api/v1/jobs/:jobId',
    {
      config: { auth: 'apiKey', representation: 'jobs' },
      schema: {
        tags: ['Jobs'],
        operationId: 'getJob',
        summary: 'Read a job',
        description:
          'Every job except drafts and deleted ones. Treat it as open for applications only when `status` is `published` and `hiring` is true.',
        security: [{ apiKey: [] }],
        params: JobIdParams,
        response: { 200: JobDetail, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { job, validUntil } = await jobs.detail(request.params.jobId, request.locale, dataVersionOf(request));
      request.representationValidUntil = validUntil;
      return job;
    },
  );
};
