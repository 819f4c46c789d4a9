import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, NOT_MODIFIED, Page, PageQuery, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import { CATALOG_NAMES } from '../../shared/catalog-data.js';
import type { CodeService } from './code-service.js';

const CodeEntry = Type.Object({
  code: Type.String({ description: 'Value to pass as a search parameter' }),
  displayName: Type.String({ description: 'Label in the language chosen by Accept-Language' }),
}, { title: 'CodeEntry' });

const CodePage = Page(CodeEntry, 'CodePage');

export const codeRoutes: FastifyPluginAsyncTypebox<{ codes: CodeService }> = async (app, { codes }) => {
  for (const catalog of CATALOG_NAMES) {
    app.get(`/api/v1/codes/${catalog}`, {
      config: { auth: 'apiKey', representation: 'codes' },
      schema: {
        tags: ['Codes'],
        // getJobCategories, getEventSubjects…: the real service's names
        operationId: `get${catalog.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`,
        summary: `List the ${catalog.replace(/-/g, ' ')} catalog`,
        description: 'Labels in ko, en, ja, zh-CN, zh-TW, es, fr, de, pt, th and vi, chosen by Accept-Language.',
        security: [{ apiKey: [] }],
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: CodePage, ...NOT_MODIFIED, ...errorResponses(...PUBLIC_READ_ERRORS) },
      },
    }, async (request) => codes.list(catalog, request.locale, request.query.page, request.query.pageSize));
  }
};
