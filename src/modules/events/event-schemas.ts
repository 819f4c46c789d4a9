import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CorrectedPage,
  DateTimeUtc,
  FacetsQuery,
  Handle,
  Highlights,
  KeywordQuery,
  ListDateTime,
  Nullable,
  Page,
  PageQuery,
  StringEnum,
} from '../../schemas/common.js';
import { EVENT_CATEGORIES, EVENT_SUBJECTS } from '../../shared/catalog-data.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { CompanyBrief } from '../jobs/job-schemas.js';

/** The reference's open types; ON_OFFLINE is both online and offline (this service first called it HYBRID). */
export const EVENT_OPEN_TYPES = ['OFFLINE', 'ONLINE', 'ON_OFFLINE', 'TBD'] as const;
/** What requests may name: the reference's types, and HYBRID for ON_OFFLINE. */
export const EVENT_OPEN_TYPE_INPUTS = [...EVENT_OPEN_TYPES, 'HYBRID'] as const;
export const ACCESS_TYPES = ['PUBLIC', 'INVITE', 'LINK'] as const;
export const JOIN_TYPES = ['OPEN', 'REGISTERED'] as const;
export const EVENT_SORTS = ['START_AT_DESC', 'START_AT_ASC', 'RELEVANCE'] as const;
/** The event search parameters that facet counts can be asked for (the `facets` parameter). */
export const EVENT_FACETS = ['companyId', 'categories', 'subjects', 'openTypes'] as const;
export type EventFacet = (typeof EVENT_FACETS)[number];

export const EventLocation = Type.Object(
  {
    country: Nullable(Type.String()),
    region: Nullable(Type.String()),
    locality: Nullable(Type.String()),
    placeName: Nullable(Type.String({ description: 'The place (request field locationTitle)' })),
    address: Nullable(Type.String()),
    addressDetail: Nullable(Type.String({ description: 'Floor, room (request field locationDetail)' })),
    directions: Nullable(Type.String({ description: 'How to get there (request field locationDescription)' })),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    title: Nullable(Type.String({ description: 'Same as placeName (the name this service used first)' })),
    detail: Nullable(Type.String({ description: 'Same as addressDetail' })),
    description: Nullable(Type.String({ description: 'Same as directions' })),
  },
  { title: 'EventLocation' },
);

export const EventHost = Type.Object(
  {
    hostType: StringEnum(['COMPANY', 'MEMBER']),
    id: Type.String({ description: 'Handle of the host company or member' }),
    name: Type.String(),
    profileImageUrl: Nullable(Type.String({ description: 'Company logo or member photo' })),
    imageUrl: Nullable(Type.String({ description: 'Same as profileImageUrl' })),
    roles: Type.Array(Type.String(), { description: 'ORGANIZER, SPONSOR, PARTNER; SPEAKER for members' }),
  },
  { title: 'EventHost' },
);

const summaryFields = {
  eventId: Type.String({ description: 'Event id (`evt_…`)' }),
  eventName: Type.String(),
  eventCategories: Type.Array(StringEnum(EVENT_CATEGORIES, { description: 'Code from the event-categories catalog' })),
  eventSubjects: Type.Array(StringEnum(EVENT_SUBJECTS, { description: 'Code from the event-subjects catalog' })),
  eventOpenType: StringEnum(EVENT_OPEN_TYPES),
  startAt: ListDateTime('Start'),
  endAt: ListDateTime('End'),
  location: Nullable(EventLocation),
  bannerUrl: Nullable(Type.String()),
  hosts: Type.Array(EventHost),
  stats: Type.Object(
    {
      viewCount: Type.Integer({ format: 'int64' }),
      guestCount: Nullable(Type.Integer({ format: 'int64', description: 'Null when the organizer hides guests' })),
    },
    { title: 'EventStats' },
  ),
  company: CompanyBrief,
  webUrl: Type.String(),
  language: Type.String(),
};

export const EventSummary = Type.Object({ ...summaryFields, highlights: Highlights }, { title: 'EventSummary' });

export const FORM_FIELD_TYPES = [
  'PHONE',
  'WEB3_WALLET',
  'TEXT',
  'LONG_TEXT',
  'CHECKBOX',
  'SELECT',
  'EDUCATION_VERIFICATION',
] as const;
export const FormField = Type.Object(
  {
    fieldLabel: Type.String({ minLength: 1, maxLength: 200 }),
    fieldType: StringEnum(FORM_FIELD_TYPES),
    required: Type.Optional(Type.Boolean({ description: 'Default false' })),
    options: Type.Optional(
      Nullable(
        Type.Array(Type.String({ maxLength: 200 }), {
          maxItems: 50,
          description: 'The choices of a SELECT or CHECKBOX field',
        }),
      ),
    ),
    schoolId: Type.Optional(
      Nullable(Type.Integer({ format: 'int64', description: 'The school an EDUCATION_VERIFICATION field checks' })),
    ),
  },
  { additionalProperties: false, title: 'FormField' },
);

export const Ticket = Type.Object(
  {
    ticketId: Type.Integer({ format: 'int64' }),
    ticketType: StringEnum(['FREE', 'CHARGED']),
    ticketName: Type.String(),
    description: Type.String(),
    price: Nullable(Type.Number({ description: 'CHARGED tickets' })),
    currency: Nullable(Type.String()),
    approvalRequired: Type.Boolean(),
    waitingRequired: Type.Boolean(),
    maxCount: Nullable(Type.Integer({ description: 'Guests the ticket admits; null for no limit' })),
    maxPerPerson: Nullable(Type.Integer({ description: 'Always null: one ticket per guest' })),
    soldOut: Type.Boolean({ description: "True when the event's guests have reached maxCount" }),
    saleStartAt: DateTimeUtc("When sales open (the ticket's creation when no window was set)"),
    saleEndAt: DateTimeUtc("When sales close (the event's end when no window was set)"),
    salesStartAt: Nullable(DateTimeUtc('The window as set; null when none was')),
    salesEndAt: Nullable(DateTimeUtc()),
    formFields: Type.Array(FormField),
  },
  { title: 'Ticket' },
);

export const SessionSpeaker = Type.Object(
  { name: Type.String(), jobOrDept: Nullable(Type.String()) },
  { title: 'EventSessionSpeaker' },
);
export const EventSession = Type.Object(
  {
    sessionId: Type.Integer({ format: 'int64' }),
    sessionName: Type.String(),
    videoUrl: Nullable(Type.String()),
    thumbnailUrl: Nullable(Type.String()),
    speakers: Type.Array(SessionSpeaker),
    tags: Type.Array(Type.String(), { description: 'Always empty: sessions carry no tags here' }),
    sortNo: Type.Integer(),
    title: Type.String({ description: 'Same as sessionName' }),
    description: Type.String(),
    startAt: Nullable(DateTimeUtc()),
    endAt: Nullable(DateTimeUtc()),
  },
  { title: 'EventSession' },
);
export const SessionTimeSlot = Type.Object(
  {
    day: Type.String({ description: 'YYYY-MM-DD in the service time zone' }),
    startTime: Type.String({ description: 'HH:mm' }),
    endTime: Type.String({ description: 'HH:mm' }),
    sessions: Type.Array(EventSession),
  },
  { title: 'EventSessionTimeSlot' },
);

export const EventFaq = Type.Object(
  {
    faqId: Type.Integer({ format: 'int64' }),
    title: Type.String(),
    content: Type.String(),
    sortNo: Type.Integer(),
    question: Type.String({ description: 'Same as title' }),
    answer: Type.String({ description: 'Same as content' }),
  },
  { title: 'EventFaq' },
);
export const FaqCategory = Type.Object(
  { categoryName: Type.String(), faqs: Type.Array(EventFaq) },
  { title: 'EventFaqCategory' },
);

export const EventDetail = Type.Object(
  {
    ...summaryFields,
    startAt: DateTimeUtc('Start, ISO 8601 UTC'),
    endAt: DateTimeUtc('End, ISO 8601 UTC'),
    description: Type.String(),
    descriptionHtml: Nullable(
      Type.String({ description: 'The description as HTML: paragraphs and line breaks, text escaped' }),
    ),
    attachments: Type.Array(
      Type.Object({ url: Type.String(), fileName: Nullable(Type.String()) }, { title: 'EventAttachment' }),
    ),
    eventStatus: StringEnum(['PUBLISHED', 'CANCELED'], {
      description: 'PUBLISHED (events that are not are not shown)',
    }),
    accessType: StringEnum(ACCESS_TYPES),
    joinType: StringEnum(JOIN_TYPES),
    onlineLink: Nullable(Type.String()),
    tickets: Type.Array(Ticket),
    sessions: Type.Array(EventSession),
    faqs: Type.Array(Type.Intersect([EventFaq, Type.Object({ categoryName: Type.String() })])),
    createdAt: DateTimeUtc(),
    updatedAt: DateTimeUtc(),
  },
  { title: 'EventDetail' },
);

export const TicketList = Type.Array(Ticket, { title: 'EventTicketList' });
export const SessionList = Type.Array(SessionTimeSlot, { title: 'EventSessionList' });
export const FaqList = Type.Array(FaqCategory, { title: 'EventFaqList' });

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(
    Type.Array(item, {
      maxItems: 50,
      description: `${description}. Repeat the parameter or give a comma list; values combine with OR`,
    }),
  );

/** A parameter kept under this service's first name for the clients that use it; the reference's name is the one to use. */
const deprecatedAlias = <T extends TSchema>(schema: T): T => ({ ...schema, deprecated: true });

export const EVENT_STATUSES = ['UPCOMING', 'ONGOING', 'CLOSED'] as const;
// No `examples`: the reference's "Try it out" fills a parameter with its example, which would filter unasked.
const day = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, description: `${description}, such as \`2026-12-01\`` }));

export const EventSearchQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'Words in the name, description or their translations, as post and job search match them (docs/search.md); every word must appear',
    }),
  ),
  categories: multi(StringEnum(EVENT_CATEGORIES), 'Codes from the event-categories catalog'),
  subjects: multi(StringEnum(EVENT_SUBJECTS), 'Codes from the event-subjects catalog'),
  openTypes: multi(StringEnum(EVENT_OPEN_TYPE_INPUTS), 'OFFLINE, ONLINE, ON_OFFLINE (both; HYBRID too) or TBD'),
  startDateFrom: day(
    'Events starting on or after this date (YYYY-MM-DD in the service time zone, or an ISO 8601 date-time: without a zone, UTC)',
  ),
  startDateTo: day('Events starting on or before this date (the whole day when a date)'),
  status: Type.Optional(
    StringEnum(EVENT_STATUSES, {
      description: 'UPCOMING (not started), ONGOING (started, not ended) or CLOSED (ended), at the time of the request',
    }),
  ),
  companyId: Type.Optional(Handle('Events of this company (handle)')),
  eventCategories: deprecatedAlias(
    multi(
      StringEnum(EVENT_CATEGORIES),
      'Deprecated: use categories (the name this service used first; given with categories, the values join)',
    ),
  ),
  eventSubjects: deprecatedAlias(multi(StringEnum(EVENT_SUBJECTS), 'Deprecated: use subjects')),
  eventOpenTypes: deprecatedAlias(multi(StringEnum(EVENT_OPEN_TYPE_INPUTS), 'Deprecated: use openTypes')),
  sort: Type.Optional(
    StringEnum(EVENT_SORTS, {
      default: 'START_AT_DESC',
      description:
        'START_AT_DESC latest start first; START_AT_ASC earliest first; RELEVANCE ranks keyword matches (latest start first without keyword)',
    }),
  ),
  facets: FacetsQuery(EVENT_FACETS, FACET_TOP),
  ...KeywordQuery,
  ...PageQuery,
});

export const EventIdParams = Type.Object({
  eventId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Event id' }),
});
export const EventPage = CorrectedPage(Page(EventSummary, 'EventPage', EVENT_FACETS));

export type EventSummaryDto = Static<typeof EventSummary>;
export type EventDetailDto = Static<typeof EventDetail>;
export type EventSearchQueryInput = Static<typeof EventSearchQuery>;
