import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTimeUtc, Handle, Nullable, Page, PageQuery, StringEnum } from '../../schemas/common.js';
import { CompanyBrief } from '../jobs/job-schemas.js';

export const EVENT_OPEN_TYPES = ['ONLINE', 'OFFLINE', 'HYBRID'] as const;
export const EVENT_SORTS = ['START_AT_DESC', 'START_AT_ASC'] as const;

export const EventLocation = Type.Object({
  country: Nullable(Type.String()),
  region: Nullable(Type.String()),
  locality: Nullable(Type.String()),
  title: Nullable(Type.String()),
  address: Nullable(Type.String()),
  detail: Nullable(Type.String()),
  description: Nullable(Type.String()),
}, { title: 'EventLocation' });

export const EventHost = Type.Object({
  hostType: StringEnum(['COMPANY', 'MEMBER']),
  id: Type.String({ description: 'Handle of the host company or member' }),
  name: Type.String(),
  imageUrl: Nullable(Type.String()),
  roles: Type.Array(Type.String(), { description: 'For example ORGANIZER, SPEAKER, SPONSOR' }),
}, { title: 'EventHost' });

const summaryFields = {
  eventId: Type.String({ description: 'Event id (`evt_…`)' }),
  eventName: Type.String(),
  eventCategories: Type.Array(Type.String({ description: 'Code from the event-categories catalog' })),
  eventSubjects: Type.Array(Type.String({ description: 'Code from the event-subjects catalog' })),
  eventOpenType: StringEnum(EVENT_OPEN_TYPES),
  startAt: DateTimeUtc(),
  endAt: DateTimeUtc(),
  location: Nullable(EventLocation),
  bannerUrl: Nullable(Type.String()),
  hosts: Type.Array(EventHost),
  stats: Type.Object({
    viewCount: Type.Integer({ format: 'int64' }),
    guestCount: Nullable(Type.Integer({ format: 'int64', description: 'Null when the organizer hides guests' })),
  }, { title: 'EventStats' }),
  company: CompanyBrief,
  webUrl: Type.String(),
  language: Type.String(),
};

export const EventSummary = Type.Object(summaryFields, { title: 'EventSummary' });

export const Ticket = Type.Object({
  ticketId: Type.Integer({ format: 'int64' }),
  ticketType: StringEnum(['FREE']),
  ticketName: Type.String(),
  description: Type.String(),
  approvalRequired: Type.Boolean(),
  waitingRequired: Type.Boolean(),
  maxCount: Nullable(Type.Integer()),
  salesStartAt: Nullable(DateTimeUtc()),
  salesEndAt: Nullable(DateTimeUtc()),
  formFields: Type.Array(Type.Unknown()),
}, { title: 'Ticket' });

export const EventDetail = Type.Object({
  ...summaryFields,
  description: Type.String(),
  onlineLink: Nullable(Type.String()),
  tickets: Type.Array(Ticket),
  sessions: Type.Array(Type.Object({
    sessionId: Type.Integer({ format: 'int64' }),
    title: Type.String(),
    description: Type.String(),
    startAt: Nullable(DateTimeUtc()),
    endAt: Nullable(DateTimeUtc()),
  }, { title: 'EventSession' })),
  faqs: Type.Array(Type.Object({
    faqId: Type.Integer({ format: 'int64' }),
    question: Type.String(),
    answer: Type.String(),
  }, { title: 'EventFaq' })),
  createdAt: DateTimeUtc(),
  updatedAt: DateTimeUtc(),
}, { title: 'EventDetail' });

const multi = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { maxItems: 50, description: `${description}. Repeat the parameter or give a comma list; values combine with OR` }));

/** The reference's open types in filters: ON_OFFLINE is this service's HYBRID; no event is TBD here. */
export const EVENT_OPEN_TYPE_FILTERS = [...EVENT_OPEN_TYPES, 'ON_OFFLINE', 'TBD'] as const;
export const EVENT_STATUSES = ['UPCOMING', 'ONGOING', 'CLOSED'] as const;
const day = (description: string) => Type.Optional(Type.String({ maxLength: 40, description, examples: ['2026-12-01'] }));

export const EventSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100, description: 'Words in the name or description, case-insensitive; every word must appear' })),
  categories: multi(Type.String({ maxLength: 64 }), 'Codes from the event-categories catalog'),
  subjects: multi(Type.String({ maxLength: 64 }), 'Codes from the event-subjects catalog'),
  openTypes: multi(StringEnum(EVENT_OPEN_TYPE_FILTERS), 'ONLINE, OFFLINE, or ON_OFFLINE (HYBRID) for both'),
  startDateFrom: day('Events starting on or after this date (YYYY-MM-DD in the service time zone, or an ISO date-time)'),
  startDateTo: day('Events starting on or before this date (the whole day when a date)'),
  status: Type.Optional(StringEnum(EVENT_STATUSES, { description: 'UPCOMING (not started), ONGOING (started, not ended) or CLOSED (ended), at the time of the request' })),
  companyId: Type.Optional(Handle('Events of this company (handle)')),
  eventCategories: multi(Type.String({ maxLength: 64 }), 'Same as categories (the name this service used first)'),
  eventSubjects: multi(Type.String({ maxLength: 64 }), 'Same as subjects'),
  eventOpenTypes: multi(StringEnum(EVENT_OPEN_TYPES), 'Same as openTypes'),
  sort: Type.Optional(StringEnum(EVENT_SORTS, { default: 'START_AT_DESC', description: 'START_AT_DESC latest start first; START_AT_ASC earliest first' })),
  ...PageQuery,
});

export const EventIdParams = Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Event id' }) });
export const EventPage = Page(EventSummary, 'EventPage');

export type EventSummaryDto = Static<typeof EventSummary>;
export type EventDetailDto = Static<typeof EventDetail>;
export type EventSearchQueryInput = Static<typeof EventSearchQuery>;
