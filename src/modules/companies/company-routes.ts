import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dataVersionOf } from '../../plugins/representation-cache.js';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import {
  CompanyDetail,
  CompanyIdParams,
  CompanyPage,
  CompanySearchQuery,
  CompanySuggestionList,
  CompanySuggestionQuery,
} from './company-schemas.js';
import type { CompanyService } from './company-service.js';

/**
 * Company search and reads (app key). Their answers are kept under the jobs data version: a company's write bumps it
 * (jobs show the company), and so does every job write that changes a company's `hiringJobCount`.
 */
export const companyRoutes: FastifyPluginAsyncTypebox<{ companies: CompanyService }> = async (app, { companies }) => {
  app.get(
    '/api/v1/companies',
    {
      config: { auth: 'apiKey', representation: 'jobs', longReads: true },
      schema: {
        tags: ['Companies'],
        operationId: 'searchCompanies',
        summary: 'Search companies',
        description:
          'Every company of the network, with how many jobs each is hiring for now. Values of one filter combine with OR, different filters with AND.',
        security: [{ apiKey: [] }],
        querystring: CompanySearchQuery,
        response: { 200: CompanyPage, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { page, validUntil } = await companies.search(request.query, request.locale, dataVersionOf(request));
      request.representationValidUntil = validUntil;
      return page;
    },
  );

  app.get(
    '/api/v1/companies/suggestions',
    {
      config: { auth: 'apiKey', representation: 'jobs' },
      schema: {
        tags: ['Companies'],
        operationId: 'suggestCompanies',
        summary: 'Complete a half-typed company name',
        description: 'Company names that begin with `prefix`. Meant to be called as the user types.',
        security: [{ apiKey: [] }],
        querystring: CompanySuggestionQuery,
        response: { 200: CompanySuggestionList, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => companies.suggestions(request.query.prefix, request.query.pageSize ?? 10),
  );

  app.get(
    '/api/v1/companies/:companyId',
    {
      config: { auth: 'apiKey', representation: 'jobs' },
      schema: {
        tags: ['Companies'],
        operationId: 'getCompany',
        summary: 'Read a company',
        description: 'The company with every industry, its links and offices; 404 C0008 for a handle that names none.',
        security: [{ apiKey: [] }],
        params: CompanyIdParams,
        response: { 200: CompanyDetail, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { company, validUntil } = await companies.detail(
        request.params.companyId,
        request.locale,
        dataVersionOf(request),
      );
      request.representationValidUntil = validUntil;
      return company;
    },
  );
};
