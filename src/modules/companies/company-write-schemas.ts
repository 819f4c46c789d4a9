import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';
import { COMPANY_SIZES } from '../jobs/job-schemas.js';
import { JobLocationInput } from '../jobs/job-write-schemas.js';
import { CompanyLink, CompanyOffice, FOUNDED_YEARS, FUNDING_STAGES } from './company-schemas.js';

const url = (description: string) => Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$', description });

/** PATCH /api/v1/companies/{companyId}: only the fields sent change; null clears a nullable one. The name and handle are not the company's to change here. */
export const CompanyUpdateRequest = Type.Object(
  {
    description: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 5000,
          description: 'What the company does; a new description drops the translations of the old one',
        }),
      ),
    ),
    language: Type.Optional(
      Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$', description: 'Language the description is written in' }),
    ),
    industries: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        minItems: 1,
        maxItems: 5,
        uniqueItems: true,
        description: 'Codes of the job-industries catalog, the main one first',
      }),
    ),
    size: Type.Optional(StringEnum(COMPANY_SIZES)),
    employeeCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }))),
    foundedYear: Type.Optional(Nullable(Type.Integer({ minimum: FOUNDED_YEARS.min, maximum: FOUNDED_YEARS.max }))),
    fundingStage: Type.Optional(Nullable(StringEnum(FUNDING_STAGES))),
    website: Type.Optional(Nullable(url('Its own website, an absolute http(s) URL'))),
    links: Type.Optional(Type.Array(CompanyLink, { maxItems: 20, description: 'Replaces every link' })),
    location: Type.Optional(Nullable(JobLocationInput)),
    offices: Type.Optional(Type.Array(CompanyOffice, { maxItems: 50, description: 'Replaces every office' })),
  },
  { additionalProperties: false, title: 'CompanyUpdateRequest' },
);

export const CompanyWriteResponse = Type.Object(
  { companyId: Type.String({ description: 'The company handle' }), webUrl: Type.String() },
  { title: 'CompanyWriteResponse' },
);

export type CompanyUpdateInput = Static<typeof CompanyUpdateRequest>;
