import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import { CATALOG_NAMES, type CatalogName } from '../../shared/catalog-data.js';
import type { CodeService } from './code-service.js';

const displayName = Type.String({ description: 'Label in the language chosen by Accept-Language' });
const code = Type.String({ description: 'Value to pass as a search parameter or a write field' });

const CodeEntry = Type.Object(
  {
    code,
    displayName,
    description: Type.String({
      description: 'What the code covers, in the same language; the empty string where there is nothing to add',
    }),
  },
  { title: 'CodeResponse' },
);

const JobIndustry = Type.Object(
  { code: Type.String({ description: 'An industry code, as companies carry it (`industry`)' }), displayName },
  { title: 'JobIndustry' },
);
const JobIndustryGroup = Type.Object(
  {
    code: Type.String({
      description: "The group's code (`IT`, `MEDIA`…): the part of its industries' codes before the first `_`",
    }),
    displayName,
    children: Type.Array(JobIndustry, { description: "The group's industries, in display order" }),
  },
  { title: 'JobIndustryCodeResponse' },
);

export const CodeList = Type.Array(CodeEntry, {
  title: 'CodeList',
  description: 'A catalog: every code, in display order',
});
export const JobIndustryList = Type.Array(JobIndustryGroup, {
  title: 'JobIndustryCodeList',
  description: 'The job industries under their groups, in display order',
});

/** getJobCategories, getEventSubjects…: the real service's names. */
const operationId = (catalog: CatalogName) =>
  `get${catalog
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;

/** The catalogs, each a bare JSON array (the real service's shape; no paging: the longest holds a few dozen codes). */
export const codeRoutes: FastifyPluginAsyncTypebox<{ codes: CodeService }> = async (app, { codes }) => {
  const schema = (catalog: CatalogName, list: typeof CodeList | typeof JobIndustryList) => ({
    tags: ['Codes'],
    operationId: operationId(catalog),
    summary: `List the ${catalog.replace(/-/g, ' ')} catalog`,
    description:
      (catalog === 'job-industries'
        ? 'The industry groups (IT, FIN, MEDIA…) with the industry codes companies carry as their children. '
        : '') + 'Labels in ko, en, ja, zh-CN, zh-TW, es, fr, de, pt, th and vi, chosen by Accept-Language.',
    security: [{ apiKey: [] }],
    response: { 200: list, ...NOT_MODIFIED, ...errorResponses(...PUBLIC_READ_ERRORS) },
  });
  const config = { auth: 'apiKey', representation: 'codes' } as const;
  for (const catalog of CATALOG_NAMES) {
    if (catalog === 'job-industries') {
      app.get(`/api/v1/codes/${catalog}`, { config, schema: schema(catalog, JobIndustryList) }, async (request) =>
        codes.industries(request.locale),
      );
    } else {
      app.get(`/api/v1/codes/${catalog}`, { config, schema: schema(catalog, CodeList) }, async (request) =>
        codes.list(catalog, request.locale),
      );
    }
  }
};
