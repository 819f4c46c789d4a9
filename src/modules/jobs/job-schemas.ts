import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CorrectedPage,
  SuggestionPageSize,
  DateTimeUtc,
  FacetsQuery,
  Handle,
  ListDateTime,
  Nullable,
  Page,
  PageQuery,
  Highlights,
  KeywordQuery,
  RequestId,
  StringEnum,
} from '../../schemas/common.js';
import { EMPLOYMENT_TYPES, SENIORITIES } from '../../shared/catalog-data.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { JOB_FACETS } from './job-index.js';

export const COMPANY_SIZES = ['TINY', 'SMALL', 'MEDIUM', 'LARGE', 'HUGE'] as const;
export const WORK_TYPES = ['ONSITE', 'HYBRID', 'REMOTE'] as const;
export const JOB_SORTS = ['RELEVANCE_DESC', 'DATE_DESC', 'POPULARITY_DESC'] as const;
export const SALARY_PERIODS = ['YEAR', 'MONTH', 'HOUR'] as const;

/** The most a search's radius may be, and what it is when not given. */
export const RADIUS_KM = { min: 1, max: 500, default: 25 } as const;

export const JobLocation = Type.Object(
  {
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code', examples: ['KR'] }),
    region: Nullable(
      Type.String({ description: 'State, province or metropolitan area, as the `regions` filter matches it' }),
    ),
    locality: Nullable(Type.String({ description: 'City or district' })),
    address: Nullable(Type.String({ description: 'Street address' })),
    latitude: Nullable(
      Type.Number({
        minimum: -90,
        maximum: 90,
        description: 'WGS 84 degrees; null when the place has no coordinates (not found by `near`)',
      }),
    ),
    longitude: Nullable(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84 degrees' })),
  },
  { title: 'JobLocation' },
);

export const JobSalary = Type.Object(
  {
    min: Nullable(Type.Number({ minimum: 0, description: 'Least pay per period; null when only a most is stated' })),
    max: Nullable(Type.Number({ minimum: 0, description: 'Most pay per period; null when only a least is stated' })),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code', examples: ['KRW'] }),
    period: StringEnum(SALARY_PERIODS, { description: 'What one amount is paid for: a year, a month or an hour' }),
  },
  { title: 'JobSalary' },
);

const place = Type.Union([JobLocation, Type.Null()], { description: 'Where the job is; null when not given' });
const pay = Type.Union([JobSalary, Type.Null()], { description: 'What the job pays, as stated; null when not stated' });

export const CompanyBrief = Type.Object(
  {
    name: Type.String(),
    id: Type.String({ description: 'Company handle' }),
    logoUrl: Nullable(Type.String({ description: 'Absolute logo URL; null when the company has none' })),
    industry: Type.String({ description: 'Code from the job-industries catalog' }),
    size: StringEnum(COMPANY_SIZES),
  },
  { title: 'CompanyBrief' },
);

export const JobSummary = Type.Object(
  {
    jobId: Type.Integer({ format: 'int64' }),
    title: Type.String(),
    seniorities: Type.Array(StringEnum(SENIORITIES)),
    employmentTypes: Type.Array(
      StringEnum(EMPLOYMENT_TYPES, { description: 'Code from the employment-types catalog' }),
    ),
    company: CompanyBrief,
    webUrl: Type.String(),
    subtitle: Type.String(),
    jobCategory: Type.String({ description: 'Code from the job-categories catalog' }),
    workType: StringEnum(WORK_TYPES),
    endAt: Nullable(ListDateTime('Recruiting end; null for always-open jobs')),
    location: place,
    salary: pay,
    highlights: Highlights,
  },
  { title: 'JobSummary' },
);

export const JobDetail = Type.Object(
  {
    jobId: Type.Integer({ format: 'int64' }),
    status: StringEnum(['published', 'finish'], { description: 'Draft and deleted jobs are never returned' }),
    hiring: Type.Boolean({
      description: 'True: open for applications. Apply only when status is published and hiring is true',
    }),
    title: Type.String(),
    seniorities: Type.Array(StringEnum(SENIORITIES)),
    employmentTypes: Type.Array(StringEnum(EMPLOYMENT_TYPES)),
    jobImages: Type.Array(Type.String({ description: 'Absolute image URL' })),
    allowRemote: Type.Boolean(),
    company: CompanyBrief,
    applyMethod: Type.Object(
      {
        type: StringEnum(['OUTLINK', 'PLATFORM'], {
          description: 'OUTLINK: apply at `url` elsewhere; PLATFORM: apply through this network at `url`',
        }),
        url: Type.String(),
      },
      { title: 'ApplyMethod' },
    ),
    webUrl: Type.String(),
    createdAt: DateTimeUtc(),
    subtitle: Type.String(),
    jobCategory: Type.String(),
    workType: StringEnum(WORK_TYPES),
    language: Type.String({ description: "Language of the texts as returned (the translation's when translated)" }),
    description: Type.String(),
    duty: Type.String({ description: 'Responsibilities' }),
    minimumQualification: Type.String(),
    preferredQualification: Type.String(),
    benefit: Type.String(),
    hireProcess: Type.String(),
    hireNotes: Type.String(),
    startAt: DateTimeUtc('Recruiting start, ISO 8601 UTC'),
    endAt: Nullable(
      DateTimeUtc('Recruiting end, ISO 8601 UTC; null for always-open jobs; a past time means hiring is closed'),
    ),
    location: place,
    salary: pay,
  },
  { title: 'JobDetail' },
);

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(
    Type.Array(item, {
      maxItems: 50,
      description: `${description}. Repeat the parameter or give a comma list; values combine with OR`,
    }),
  );

export const JobSearchQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({ maxLength: 100, description: 'Words in the title, subtitle or description; every word must match' }),
  ),
  companyId: Type.Optional(Handle('Jobs of this company (handle)')),
  jobCategories: multi(Type.String({ maxLength: 64 }), 'Codes from the job-categories catalog'),
  seniorities: multi(StringEnum(SENIORITIES), 'Seniorities'),
  employmentTypes: multi(StringEnum(EMPLOYMENT_TYPES), 'Codes from the employment-types catalog'),
  companySizes: multi(StringEnum(COMPANY_SIZES), 'Company sizes'),
  workTypes: multi(StringEnum(WORK_TYPES), 'Workplace types'),
  countries: multi(Type.String({ pattern: '^[A-Z]{2}$' }), "Countries of the job's location, ISO 3166-1 alpha-2"),
  regions: multi(
    Type.String({ minLength: 1, maxLength: 100 }),
    "Regions of the job's location, as written in it (the `regions` facet lists them)",
  ),
  near: Type.Optional(
    Type.String({
      pattern: '^-?\\d{1,2}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?$',
      description:
        'Jobs within `radiusKm` of this point, `<latitude>,<longitude>` in WGS 84 degrees; jobs without coordinates are not found, REMOTE jobs only with `includeRemote`',
    }),
  ),
  radiusKm: Type.Optional(
    Type.Number({
      minimum: RADIUS_KM.min,
      maximum: RADIUS_KM.max,
      description: `Kilometres around \`near\` (only with it); default ${RADIUS_KM.default}`,
    }),
  ),
  includeRemote: Type.Optional(Type.Boolean({ description: 'With `near`: REMOTE jobs match too, wherever they are' })),
  salaryMin: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'Jobs whose stated pay reaches at least this much a year (with `salaryCurrency`): a month counts ×12, an hour ×2,080',
    }),
  ),
  salaryMax: Type.Optional(
    Type.Number({
      minimum: 0,
      description: 'Jobs whose stated pay starts at no more than this much a year (with `salaryCurrency`)',
    }),
  ),
  salaryCurrency: Type.Optional(
    Type.String({
      pattern: '^[A-Z]{3}$',
      description: 'ISO 4217: jobs paying in this currency; required with `salaryMin` and `salaryMax`',
    }),
  ),
  includeUnstatedSalary: Type.Optional(
    Type.Boolean({ description: 'With a salary filter: jobs that state no pay match too' }),
  ),
  sort: Type.Optional(
    StringEnum(JOB_SORTS, {
      default: 'RELEVANCE_DESC',
      description:
        'RELEVANCE_DESC ranks keyword matches (newest first without keyword); DATE_DESC newest; POPULARITY_DESC most viewed',
    }),
  ),
  facets: FacetsQuery(JOB_FACETS, FACET_TOP),
  ...KeywordQuery,
  ...PageQuery,
});

export const SUGGESTION_TYPES = ['TITLE', 'COMPANY', 'KEYWORD'] as const;

export const JobSuggestion = Type.Object(
  {
    text: Type.String({
      description:
        "The completion as jobs hold it: a title as written, a company's name, or a word of titles in lower case",
    }),
    type: StringEnum(SUGGESTION_TYPES, {
      description: "TITLE: a job title (search it as `keyword`); COMPANY: a company's name; KEYWORD: a word of titles",
    }),
    count: Type.Integer({ minimum: 1, description: 'How many jobs hiring now hold it' }),
  },
  { title: 'JobSuggestion' },
);

export const JobSuggestionList = Type.Array(JobSuggestion, { maxItems: 10, title: 'JobSuggestionList' });

export const JobSuggestionQuery = Type.Object({
  prefix: Type.String({
    minLength: 1,
    maxLength: 50,
    examples: ['백엔'],
    description:
      'What the user has typed so far. Latin letters match in any case; Korean by syllables, by a half-typed last syllable (`배ㄱ`) and by initial consonants (`ㅂㅇㄷ`)',
  }),
  pageSize: SuggestionPageSize,
});

export const JobIdParams = Type.Object({ jobId: RequestId({ description: 'Job id' }) });
export const JobPage = CorrectedPage(Page(JobSummary, 'JobPage', JOB_FACETS));

export type JobSummaryDto = Static<typeof JobSummary>;
export type JobDetailDto = Static<typeof JobDetail>;
export type JobSearchQueryInput = Static<typeof JobSearchQuery>;
export type JobSuggestionDto = Static<typeof JobSuggestion>;
