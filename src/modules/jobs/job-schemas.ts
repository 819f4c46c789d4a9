import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTimeUtc, FacetsQuery, Handle, ListDateTime, Nullable, Page, PageQuery, RequestId, StringEnum } from '../../schemas/common.js';
import { EMPLOYMENT_TYPES, SENIORITIES } from '../../shared/catalog-data.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { JOB_FACETS } from './job-index.js';

export const COMPANY_SIZES = ['TINY', 'SMALL', 'MEDIUM', 'LARGE', 'HUGE'] as const;
export const WORK_TYPES = ['ONSITE', 'HYBRID', 'REMOTE'] as const;
export const JOB_SORTS = ['RELEVANCE_DESC', 'DATE_DESC', 'POPULARITY_DESC'] as const;

export const CompanyBrief = Type.Object({
  name: Type.String(),
  id: Type.String({ description: 'Company handle' }),
  logoUrl: Nullable(Type.String({ description: 'Absolute logo URL; null when the company has none' })),
  industry: Type.String({ description: 'Code from the job-industries catalog' }),
  size: StringEnum(COMPANY_SIZES),
}, { title: 'CompanyBrief' });

export const JobSummary = Type.Object({
  jobId: Type.Integer({ format: 'int64' }),
  title: Type.String(),
  seniorities: Type.Array(StringEnum(SENIORITIES)),
  employmentTypes: Type.Array(StringEnum(EMPLOYMENT_TYPES, { description: 'Code from the employment-types catalog' })),
  company: CompanyBrief,
  webUrl: Type.String(),
  subtitle: Type.String(),
  jobCategory: Type.String({ description: 'Code from the job-categories catalog' }),
  workType: StringEnum(WORK_TYPES),
  endAt: Nullable(ListDateTime('Recruiting end; null for always-open jobs')),
}, { title: 'JobSummary' });

export const JobDetail = Type.Object({
  jobId: Type.Integer({ format: 'int64' }),
  status: StringEnum(['published', 'finish'], { description: 'Draft and deleted jobs are never returned' }),
  hiring: Type.Boolean({ description: 'True: open for applications. Apply only when status is published and hiring is true' }),
  title: Type.String(),
  seniorities: Type.Array(StringEnum(SENIORITIES)),
  employmentTypes: Type.Array(StringEnum(EMPLOYMENT_TYPES)),
  jobImages: Type.Array(Type.String({ description: 'Absolute image URL' })),
  allowRemote: Type.Boolean(),
  company: CompanyBrief,
  applyMethod: Type.Object({
    type: StringEnum(['OUTLINK', 'PLATFORM'], { description: 'OUTLINK: apply at `url` elsewhere; PLATFORM: apply through this network at `url`' }),
    url: Type.String(),
  }, { title: 'ApplyMethod' }),
  webUrl: Type.String(),
  createdAt: DateTimeUtc(),
  subtitle: Type.String(),
  jobCategory: Type.String(),
  workType: StringEnum(WORK_TYPES),
  language: Type.String({ description: 'Language of the texts as returned (the translation\'s when translated)' }),
  description: Type.String(),
  duty: Type.String({ description: 'Responsibilities' }),
  minimumQualification: Type.String(),
  preferredQualification: Type.String(),
  benefit: Type.String(),
  hireProcess: Type.String(),
  hireNotes: Type.String(),
  startAt: DateTimeUtc('Recruiting start, ISO 8601 UTC'),
  endAt: Nullable(DateTimeUtc('Recruiting end, ISO 8601 UTC; null for always-open jobs; a past time means hiring is closed')),
}, { title: 'JobDetail' });

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { maxItems: 50, description: `${description}. Repeat the parameter or give a comma list; values combine with OR` }));

export const JobSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100, description: 'Words in the title, subtitle or description; every word must match' })),
  companyId: Type.Optional(Handle('Jobs of this company (handle)')),
  jobCategories: multi(Type.String({ maxLength: 64 }), 'Codes from the job-categories catalog'),
  seniorities: multi(StringEnum(SENIORITIES), 'Seniorities'),
  employmentTypes: multi(StringEnum(EMPLOYMENT_TYPES), 'Codes from the employment-types catalog'),
  companySizes: multi(StringEnum(COMPANY_SIZES), 'Company sizes'),
  workTypes: multi(StringEnum(WORK_TYPES), 'Workplace types'),
  sort: Type.Optional(StringEnum(JOB_SORTS, { default: 'RELEVANCE_DESC', description: 'RELEVANCE_DESC ranks keyword matches (newest first without keyword); DATE_DESC newest; POPULARITY_DESC most viewed' })),
  facets: FacetsQuery(JOB_FACETS, FACET_TOP),
  ...PageQuery,
});

export const JobIdParams = Type.Object({ jobId: RequestId({ description: 'Job id' }) });
export const JobPage = Page(JobSummary, 'JobPage', JOB_FACETS);

export type JobSummaryDto = Static<typeof JobSummary>;
export type JobDetailDto = Static<typeof JobDetail>;
export type JobSearchQueryInput = Static<typeof JobSearchQuery>;
