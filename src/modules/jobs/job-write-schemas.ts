import { Type, type Static } from '@sinclair/typebox';
import { ListDateTime, Nullable, StringEnum } from '../../schemas/common.js';
import { EMPLOYMENT_TYPES, SENIORITIES } from '../../shared/catalog-data.js';
import { SALARY_PERIODS, WORK_TYPES } from './job-schemas.js';

const text = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const date = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: ['2026-12-01'] });

/** The reference's FILE, URL and ANY, and the DOCUMENT, IMAGE and LINK this service took before it followed the reference. */
export const UPLOAD_TYPES = ['ANY', 'FILE', 'URL', 'DOCUMENT', 'IMAGE', 'LINK'] as const;
export const SETTING_TYPES = ['RESUME', 'COVER_LETTER', 'PORTFOLIO', 'CUSTOM'] as const;

export const JobSetting = Type.Object(
  {
    type: Type.Optional(
      StringEnum(SETTING_TYPES, { description: 'What the applicant submits; CUSTOM (the default) needs a title' }),
    ),
    title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    required: Type.Optional(Type.Boolean({ description: 'Default false' })),
    uploadType: Type.Optional(
      StringEnum(UPLOAD_TYPES, { description: 'How it is submitted: FILE, URL or ANY (the default)' }),
    ),
  },
  { additionalProperties: false, title: 'JobSetting' },
);

const part = (max: number, description: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: max, description })));

export const JobLocationInput = Type.Object(
  {
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code' }),
    region: part(100, 'State, province or metropolitan area'),
    locality: part(100, 'City or district'),
    address: part(300, 'Street address'),
    latitude: Type.Optional(
      Nullable(Type.Number({ minimum: -90, maximum: 90, description: 'WGS 84 degrees, given with longitude' })),
    ),
    longitude: Type.Optional(
      Nullable(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84 degrees, given with latitude' })),
    ),
  },
  { additionalProperties: false, title: 'JobLocationInput' },
);

export const JobSalaryInput = Type.Object(
  {
    min: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e15 }))),
    max: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e15 }))),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' }),
    period: Type.Optional(
      StringEnum(SALARY_PERIODS, { description: 'What one amount is paid for; YEAR when not given' }),
    ),
  },
  {
    additionalProperties: false,
    title: 'JobSalaryInput',
    description: 'At least one of min and max; min no more than max',
  },
);

const fields = {
  jobTitle: Type.String({ minLength: 1, maxLength: 200 }),
  jobCategory: Type.String({ description: 'Code from the job-categories catalog' }),
  seniorities: Type.Array(StringEnum(SENIORITIES), { minItems: 1, maxItems: 5, uniqueItems: true }),
  employmentTypes: Type.Array(StringEnum(EMPLOYMENT_TYPES), {
    minItems: 1,
    maxItems: 5,
    uniqueItems: true,
    description: 'Codes from the employment-types catalog',
  }),
  jobBio: text(20_000, 'Description'),
  jobResponse: text(20_000, 'Responsibilities'),
  settings: Type.Array(JobSetting, { maxItems: 20, description: 'What applicants submit' }),
  jobSubtitle: Nullable(text(200)),
  jobMinimumQual: Nullable(text(10_000)),
  jobPreferQual: Nullable(text(10_000)),
  jobBenefit: Nullable(text(10_000)),
  jobHireProcess: Nullable(text(10_000)),
  jobHireNotes: Nullable(text(10_000)),
  email: Nullable(Type.String({ maxLength: 320, description: 'Contact e-mail' })),
  notifyEmails: Type.Array(Type.String({ maxLength: 320 }), {
    maxItems: 10,
    description: 'Addresses told about applications',
  }),
  military: Type.Boolean(),
  veteran: Type.Boolean(),
  workType: StringEnum(WORK_TYPES, {
    description: "ONSITE (default), HYBRID or REMOTE; not in the spec's field list, accepted as an optional addition",
  }),
  location: Nullable(JobLocationInput),
  salary: Nullable(JobSalaryInput),
};

const optionalFields = Type.Partial(Type.Object(fields)).properties;

export const JobCreateRequest = Type.Object(
  {
    ...optionalFields,
    jobTitle: fields.jobTitle,
    jobCategory: fields.jobCategory,
    seniorities: fields.seniorities,
    employmentTypes: fields.employmentTypes,
    jobBio: fields.jobBio,
    startDate: Type.Optional(date('Recruiting start, a date in the service time zone')),
    endDate: Type.Optional(
      Nullable(
        date('Recruiting end (inclusive), a date in the service time zone; omit or null for an always-open job'),
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'JobCreateRequest',
    examples: [
      {
        jobTitle: '백엔드개발자 (TypeScript)',
        jobCategory: 'dev',
        seniorities: ['JUNIOR', 'MIDLEVEL'],
        employmentTypes: ['FULL_TIME'],
        jobBio: 'TypeScript로 API를 만듭니다.',
        jobResponse: 'API 설계와 운영',
        jobSubtitle: '판교에서 함께',
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        settings: [{ title: '이력서', required: true, uploadType: 'ANY' }],
        email: 'jobs@acme.example',
        notifyEmails: ['hr@acme.example'],
        military: false,
        veteran: false,
      },
    ],
  },
);

export const JobUpdateRequest = Type.Object(optionalFields, {
  additionalProperties: false,
  title: 'JobUpdateRequest',
  minProperties: 1,
  examples: [{ jobTitle: '시니어 백엔드개발자', seniorities: ['SENIOR'] }],
});

export const JobPublishRequest = Type.Object(
  {
    startDate: Type.Optional(Nullable(date('Recruiting start; omit or null to open it now'))),
    endDate: Type.Optional(Nullable(date('Recruiting end (inclusive); omit or null for an always-open job'))),
  },
  {
    additionalProperties: false,
    title: 'JobPublishRequest',
    examples: [{ startDate: '2026-12-01', endDate: '2026-12-31' }, { startDate: '2026-12-01' }],
  },
);

export const ManagedJobSummary = Type.Object(
  {
    jobId: Type.Integer({ format: 'int64' }),
    status: StringEnum(['draft', 'published', 'finish']),
    hiring: Type.Boolean(),
    title: Type.String(),
    seniorities: Type.Array(StringEnum(SENIORITIES)),
    employmentTypes: Type.Array(StringEnum(EMPLOYMENT_TYPES)),
    webUrl: Type.String(),
    subtitle: Type.String(),
    jobCategory: Type.String(),
    workType: StringEnum(WORK_TYPES),
    startAt: Nullable(Type.String({ format: 'date-time', description: 'Recruiting start, ISO 8601 UTC' })),
    endAt: Nullable(Type.String({ format: 'date-time', description: 'Recruiting end, ISO 8601 UTC' })),
  },
  { title: 'ManagedJobSummary' },
);

/** A company job as the list of them shows it: its times in the lists' form. */
export const ManagedJobItem = Type.Object(
  {
    ...ManagedJobSummary.properties,
    startAt: Nullable(ListDateTime('Recruiting start')),
    endAt: Nullable(ListDateTime('Recruiting end')),
  },
  { title: 'ManagedJobItem' },
);

export const JobCompanyQuery = Type.Object({
  companyId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        "Company handle: required on create; on the other operations it must be the job's company when given",
    }),
  ),
});

/** PATCH names the kind of posting it updates (docs/api.md: "type PLATFORM is required"). */
export const JobUpdateQuery = Type.Object({
  ...JobCompanyQuery.properties,
  type: StringEnum(['PLATFORM'], {
    description: 'The kind of posting: PLATFORM (the only kind the API manages); required',
  }),
});

export type JobCreateInput = Static<typeof JobCreateRequest>;
export type JobUpdateInput = Static<typeof JobUpdateRequest>;
export type ManagedJobSummaryDto = Static<typeof ManagedJobSummary>;
