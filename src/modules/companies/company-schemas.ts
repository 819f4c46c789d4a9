import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CorrectedPage,
  SuggestionPageSize,
  DateTimeUtc,
  FacetsQuery,
  Handle,
  Highlights,
  KeywordQuery,
  Nullable,
  Page,
  PageQuery,
  StringEnum,
} from '../../schemas/common.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { COMPANY_SIZES, JobLocation, RADIUS_KM } from '../jobs/job-schemas.js';
import { COMPANY_FACETS } from './company-index.js';

export const FUNDING_STAGES = [
  'BOOTSTRAPPED',
  'PRE_SEED',
  'SEED',
  'SERIES_A',
  'SERIES_B',
  'SERIES_C',
  'SERIES_D_OR_LATER',
  'PUBLIC',
  'ACQUIRED',
] as const;
export const COMPANY_SORTS = ['RELEVANCE', 'HIRING_DESC', 'NAME', 'RECENT'] as const;
export const COMPANY_LINK_TYPES = [
  'LINKEDIN',
  'X',
  'FACEBOOK',
  'INSTAGRAM',
  'YOUTUBE',
  'GITHUB',
  'BLOG',
  'CAREERS',
  'OTHER',
] as const;

/** The founding years a company may give, and that `foundedFrom` and `foundedTo` take. */
export const FOUNDED_YEARS = { min: 1800, max: 2100 } as const;

const place = Type.Union([JobLocation, Type.Null()], { description: "The company's main place; null when not given" });

export const CompanySummary = Type.Object(
  {
    companyId: Type.String({ description: 'The company handle: what jobs, posts and events call `company.id`' }),
    name: Type.String(),
    logoUrl: Nullable(Type.String({ description: 'Absolute logo URL; null when the company has none' })),
    industry: Type.String({ description: 'Its main industry, a code of the job-industries catalog' }),
    industryName: Type.String({ description: 'The name of `industry` in the response language' }),
    size: StringEnum(COMPANY_SIZES),
    description: Nullable(Type.String({ description: 'What the company does; null when it says nothing' })),
    location: place,
    employeeCount: Nullable(Type.Integer({ minimum: 1, description: 'How many people it employs' })),
    foundedYear: Nullable(Type.Integer({ minimum: FOUNDED_YEARS.min, maximum: FOUNDED_YEARS.max })),
    fundingStage: Nullable(StringEnum(FUNDING_STAGES)),
    website: Nullable(Type.String({ description: 'Its own website, an absolute http(s) URL' })),
    hiringJobCount: Type.Integer({ minimum: 0, description: 'Its jobs hiring now (what `GET /api/v1/jobs` finds)' }),
    certificated: Type.Boolean({ description: 'The network has verified the company' }),
    webUrl: Type.String(),
    highlights: Highlights,
  },
  { title: 'CompanySummary' },
);

export const CompanyLink = Type.Object(
  {
    type: StringEnum(COMPANY_LINK_TYPES),
    url: Type.String({ maxLength: 2048, description: 'An absolute http(s) URL' }),
  },
  { title: 'CompanyLink', additionalProperties: false },
);

export const CompanyOffice = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'What the office is called: "HQ", "Busan lab"' }),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code' }),
    region: Nullable(Type.String({ maxLength: 100 })),
    locality: Nullable(Type.String({ maxLength: 100 })),
    address: Nullable(Type.String({ maxLength: 300 })),
  },
  { title: 'CompanyOffice', additionalProperties: false },
);

export const CompanyIndustry = Type.Object(
  {
    code: Type.String({ description: 'Code of the job-industries catalog' }),
    name: Type.String({ description: 'Its name in the response language' }),
  },
  { title: 'CompanyIndustry' },
);

export const CompanyDetail = Type.Object(
  {
    ...CompanySummary.properties,
    industries: Type.Array(CompanyIndustry, { description: 'Every industry it is in, the main one first' }),
    links: Type.Array(CompanyLink, { description: 'Its pages elsewhere' }),
    offices: Type.Array(CompanyOffice),
    language: Type.String({ description: "Language of `description` as returned (the translation's when translated)" }),
    createdAt: DateTimeUtc(),
    updatedAt: DateTimeUtc(),
  },
  { title: 'CompanyDetail' },
);

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(
    Type.Array(item, {
      maxItems: 50,
      description: `${description}. Repeat the parameter or give a comma list; values combine with OR`,
    }),
  );

const year = (description: string) =>
  Type.Optional(Type.Integer({ minimum: FOUNDED_YEARS.min, maximum: FOUNDED_YEARS.max, description }));

export const CompanySearchQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'Words in the name, handle, description (or its translations) or industry names; every word must match',
    }),
  ),
  industries: multi(Type.String({ maxLength: 64 }), 'Codes from the job-industries catalog'),
  companySizes: multi(StringEnum(COMPANY_SIZES), 'Company sizes'),
  fundingStages: multi(StringEnum(FUNDING_STAGES), 'Funding stages'),
  countries: multi(Type.String({ pattern: '^[A-Z]{2}$' }), "Countries of the company's place, ISO 3166-1 alpha-2"),
  regions: multi(
    Type.String({ minLength: 1, maxLength: 100 }),
    "Regions of the company's place, as written in it (the `regions` facet lists them)",
  ),
  near: Type.Optional(
    Type.String({
      pattern: '^-?\\d{1,2}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?$',
      description:
        'Companies within `radiusKm` of this point, `<latitude>,<longitude>` in WGS 84 degrees; companies without coordinates are not found',
    }),
  ),
  radiusKm: Type.Optional(
    Type.Number({
      minimum: RADIUS_KM.min,
      maximum: RADIUS_KM.max,
      description: `Kilometres around \`near\` (only with it); default ${RADIUS_KM.default}`,
    }),
  ),
  hiring: Type.Optional(
    Type.Boolean({ description: 'true: companies with at least one job hiring now; false: companies with none' }),
  ),
  foundedFrom: year('Companies founded in this year or later (companies that give no year are left out)'),
  foundedTo: year('Companies founded in this year or earlier'),
  sort: Type.Optional(
    StringEnum(COMPANY_SORTS, {
      default: 'RELEVANCE',
      description:
        'RELEVANCE ranks keyword matches (newest first without keyword); HIRING_DESC most jobs hiring now first (then newest); NAME by name, A to Z and 가 to 힣; RECENT newest listed first',
    }),
  ),
  facets: FacetsQuery(COMPANY_FACETS, FACET_TOP),
  ...KeywordQuery,
  ...PageQuery,
});

export const CompanySuggestion = Type.Object(
  {
    text: Type.String({ description: "A company's name as written" }),
    type: StringEnum(['COMPANY'], { description: "COMPANY: a company's name" }),
    count: Type.Integer({ minimum: 1, description: 'How many companies have that name' }),
  },
  { title: 'CompanySuggestion' },
);
export const CompanySuggestionList = Type.Array(CompanySuggestion, { maxItems: 10, title: 'CompanySuggestionList' });

export const CompanySuggestionQuery = Type.Object({
  prefix: Type.String({
    minLength: 1,
    maxLength: 50,
    examples: ['데이'],
    description:
      'What the user has typed so far. Latin letters match in any case; Korean by syllables, by a half-typed last syllable and by initial consonants (`ㄷㅇㅌ`)',
  }),
  pageSize: SuggestionPageSize,
});

export const CompanyIdParams = Type.Object({ companyId: Handle('Company handle') });
export const CompanyPage = CorrectedPage(Page(CompanySummary, 'CompanyPage', COMPANY_FACETS));

export type CompanySummaryDto = Static<typeof CompanySummary>;
export type CompanyDetailDto = Static<typeof CompanyDetail>;
export type CompanySearchQueryInput = Static<typeof CompanySearchQuery>;
export type CompanySuggestionDto = Static<typeof CompanySuggestion>;
