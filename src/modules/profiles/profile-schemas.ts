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
import { RADIUS_KM } from '../jobs/job-schemas.js';
import { PROFILE_FACETS } from './profile-index.js';

export const PROFILE_SORTS = ['RELEVANCE', 'RECENT'] as const;
export const PROFILE_LINK_TYPES = ['LINKEDIN', 'GITHUB', 'X', 'BLOG', 'PORTFOLIO', 'OTHER'] as const;
/** The sections a member can show or hide (the whole profile is PUBLIC or PRIVATE besides). */
export const PROFILE_SECTIONS = ['experiences', 'educations', 'links', 'openToWork'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

/** How far into a profile search's results an app may page (docs/profiles.md, "Harvesting"). */
export const PROFILE_SEARCH_DEPTH = 1_000;

const YearMonth = (description: string) =>
  Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', examples: ['2021-03'], description });

export const ProfileExperience = Type.Object(
  {
    companyName: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Where the member worked, as they write it',
    }),
    companyId: Nullable(
      Handle('The handle of that company in the directory (GET /api/v1/companies), or null when it is not listed'),
    ),
    title: Type.String({ minLength: 1, maxLength: 100 }),
    startDate: YearMonth('First month, YYYY-MM'),
    endDate: Nullable(YearMonth('Last month, YYYY-MM; null while the member works there')),
    description: Nullable(Type.String({ maxLength: 2000 })),
  },
  { title: 'ProfileExperience', additionalProperties: false },
);

export const ProfileEducation = Type.Object(
  {
    school: Type.String({ minLength: 1, maxLength: 100 }),
    degree: Nullable(Type.String({ maxLength: 100 })),
    fieldOfStudy: Nullable(Type.String({ maxLength: 100 })),
    startDate: Nullable(YearMonth('First month, YYYY-MM')),
    endDate: Nullable(YearMonth('Last month, YYYY-MM; null while studying')),
  },
  { title: 'ProfileEducation', additionalProperties: false },
);

export const ProfileLink = Type.Object(
  {
    type: StringEnum(PROFILE_LINK_TYPES),
    url: Type.String({ maxLength: 2048, description: 'An absolute http(s) URL' }),
  },
  { title: 'ProfileLink', additionalProperties: false },
);

export const ProfileLocation = Type.Object(
  {
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code', examples: ['KR'] }),
    region: Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'As the `regions` filter matches it' })),
    latitude: Nullable(
      Type.Number({
        minimum: -90,
        maximum: 90,
        description: 'WGS 84 degrees, kept to one decimal (about 11 km): a town, never an address',
      }),
    ),
    longitude: Nullable(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84 degrees, one decimal' })),
  },
  { title: 'ProfileLocation', additionalProperties: false },
);

export const ProfileCurrentPosition = Type.Object(
  {
    title: Type.String(),
    companyName: Type.String(),
    companyId: Nullable(Type.String({ description: 'The company handle, when the company is in the directory' })),
  },
  { title: 'ProfileCurrentPosition' },
);

const section = (schema: TSchema, what: string) =>
  Type.Optional({ ...schema, description: `${what}. Absent when the member hides the section` });

export const ProfileSummary = Type.Object(
  {
    handle: Type.String({ description: "The member's handle: what posts call `author.id`" }),
    name: Type.String(),
    imageUrl: Nullable(Type.String({ description: 'Absolute URL of the profile image; null without one' })),
    headline: Nullable(Type.String({ description: 'What the member says they do, in a line' })),
    skills: Type.Array(Type.String()),
    location: Nullable(ProfileLocation),
    currentPosition: section(
      Nullable(ProfileCurrentPosition),
      'The experience the member is in now (the first without an end); null when none',
    ),
    openToWork: section(Type.Boolean(), 'The member is open to new work'),
    certificated: Type.Boolean({ description: 'The network has verified the member' }),
    webUrl: Type.String(),
    highlights: Highlights,
  },
  { title: 'ProfileSummary' },
);

export const ProfileDetail = Type.Object(
  {
    ...ProfileSummary.properties,
    experiences: section(Type.Array(ProfileExperience), 'Newest first, as the member ordered them'),
    educations: section(Type.Array(ProfileEducation), 'As the member ordered them'),
    links: section(Type.Array(ProfileLink), "The member's pages elsewhere"),
    updatedAt: DateTimeUtc(),
  },
  { title: 'ProfileDetail' },
);

export const ProfileVisibility = Type.Object(
  {
    profile: StringEnum(['PUBLIC', 'PRIVATE'], {
      description: 'PUBLIC: apps find and read the shown sections; PRIVATE: no app sees any of it',
    }),
    experiences: Type.Boolean({ description: 'Experiences shown (also the current position and `companyId` search)' }),
    educations: Type.Boolean(),
    links: Type.Boolean(),
    openToWork: Type.Boolean({ description: '`openToWork` shown (and found by the `openToWork` filter)' }),
  },
  { title: 'ProfileVisibility', additionalProperties: false },
);

/** The member's own profile: every section, shown or not, with its visibility. */
export const MyProfile = Type.Object(
  {
    handle: Type.String(),
    name: Type.String(),
    imageUrl: Nullable(Type.String()),
    email: Type.Optional(Type.String({ description: 'Only with the `email` scope' })),
    headline: Nullable(Type.String()),
    skills: Type.Array(Type.String()),
    location: Nullable(ProfileLocation),
    experiences: Type.Array(ProfileExperience),
    educations: Type.Array(ProfileEducation),
    links: Type.Array(ProfileLink),
    openToWork: Type.Boolean(),
    visibility: ProfileVisibility,
    webUrl: Type.String({ description: 'Where the public profile is, when it is public' }),
    updatedAt: Nullable(DateTimeUtc('When the member last changed it; null when they never wrote one')),
  },
  { title: 'MyProfile' },
);

export const ProfileUpdate = Type.Object(
  {
    headline: Type.Optional(Nullable(Type.String({ maxLength: 220 }))),
    skills: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
        maxItems: 50,
        description: 'Skills as the member writes them; the same skill twice (in any case) is kept once',
      }),
    ),
    location: Type.Optional(Nullable(ProfileLocation)),
    experiences: Type.Optional(Type.Array(ProfileExperience, { maxItems: 30 })),
    educations: Type.Optional(Type.Array(ProfileEducation, { maxItems: 20 })),
    links: Type.Optional(Type.Array(ProfileLink, { maxItems: 10 })),
    openToWork: Type.Optional(Type.Boolean()),
    visibility: Type.Optional(
      Type.Partial(ProfileVisibility, { title: 'ProfileVisibilityChange', additionalProperties: false }),
    ),
  },
  {
    title: 'ProfileUpdate',
    additionalProperties: false,
    description: 'Any of the fields; a field left out keeps its value. A list given replaces the list.',
  },
);

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(
    Type.Array(item, {
      maxItems: 50,
      description: `${description}. Repeat the parameter or give a comma list; values combine with OR`,
    }),
  );

export const ProfileSearchQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Words in the name, headline, skills or shown job titles; every word must match',
    }),
  ),
  skills: multi(Type.String({ minLength: 1, maxLength: 50 }), 'Skills, in any case'),
  companyId: multi(Handle('Company handle'), 'Members working now at these companies (their current experience)'),
  countries: multi(Type.String({ pattern: '^[A-Z]{2}$' }), 'Countries, ISO 3166-1 alpha-2'),
  regions: multi(Type.String({ minLength: 1, maxLength: 100 }), 'Regions as members write them (the `regions` facet)'),
  near: Type.Optional(
    Type.String({
      pattern: '^-?\\d{1,2}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?$',
      description:
        'Members within `radiusKm` of this point, `<latitude>,<longitude>`; members who gave no coordinates are not found',
    }),
  ),
  radiusKm: Type.Optional(
    Type.Number({
      minimum: RADIUS_KM.min,
      maximum: RADIUS_KM.max,
      description: `Kilometres around \`near\` (only with it); default ${RADIUS_KM.default}`,
    }),
  ),
  openToWork: Type.Optional(
    Type.Boolean({ description: 'true: members who show they are open to work; false: those who do not say so' }),
  ),
  sort: Type.Optional(
    StringEnum(PROFILE_SORTS, {
      default: 'RELEVANCE',
      description:
        'RELEVANCE ranks keyword matches (the newest profiles first without keyword); RECENT most recently updated first',
    }),
  ),
  facets: FacetsQuery(PROFILE_FACETS, FACET_TOP),
  ...KeywordQuery,
  ...PageQuery,
});

export const ProfileSuggestion = Type.Object(
  {
    text: Type.String({ description: 'A skill as members write it' }),
    type: StringEnum(['SKILL']),
    count: Type.Integer({ minimum: 1, description: 'How many public profiles list it' }),
  },
  { title: 'ProfileSuggestion' },
);
export const ProfileSuggestionList = Type.Array(ProfileSuggestion, { maxItems: 10, title: 'ProfileSuggestionList' });
export const ProfileSuggestionQuery = Type.Object({
  prefix: Type.String({
    minLength: 1,
    maxLength: 50,
    examples: ['typ'],
    description: 'What the user has typed of a skill (any case; Korean by syllables and initial consonants)',
  }),
  pageSize: SuggestionPageSize,
});

export const ProfileHandleParams = Type.Object({ handle: Handle("The member's handle") });
export const ProfilePage = CorrectedPage(Page(ProfileSummary, 'ProfilePage', PROFILE_FACETS));

export type ProfileSummaryDto = Static<typeof ProfileSummary>;
export type ProfileDetailDto = Static<typeof ProfileDetail>;
export type MyProfileDto = Static<typeof MyProfile>;
export type ProfileUpdateInput = Static<typeof ProfileUpdate>;
export type ProfileSearchQueryInput = Static<typeof ProfileSearchQuery>;
export type ProfileSuggestionDto = Static<typeof ProfileSuggestion>;
export type ProfileExperienceDto = Static<typeof ProfileExperience>;
export type ProfileEducationDto = Static<typeof ProfileEducation>;
export type ProfileLinkDto = Static<typeof ProfileLink>;
export type ProfileLocationDto = Static<typeof ProfileLocation>;
