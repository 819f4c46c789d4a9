import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';
import { EVENT_CATEGORIES, EVENT_SUBJECTS } from '../../shared/catalog-data.js';
import { ACCESS_TYPES, EVENT_OPEN_TYPE_INPUTS, FormField, JOIN_TYPES } from './event-schemas.js';

const dateTime = (description: string) =>
  Type.String({
    minLength: 10,
    maxLength: 40,
    description: `${description}; ISO 8601 (no zone: service time zone)`,
    examples: ['2026-12-05T19:00:00+09:00'],
  });
const text = (max: number) => Type.String({ maxLength: max });

const eventFields = {
  eventName: Type.String({ minLength: 1, maxLength: 200 }),
  description: text(20_000),
  startAt: dateTime('Start'),
  endAt: dateTime('End'),
  eventOpenType: StringEnum(EVENT_OPEN_TYPE_INPUTS, {
    description: 'OFFLINE (default), ONLINE, ON_OFFLINE (both; HYBRID is taken for it) or TBD',
  }),
  accessType: StringEnum(ACCESS_TYPES, { description: 'Who may see it: PUBLIC (default), INVITE or LINK' }),
  joinType: StringEnum(JOIN_TYPES, { description: 'OPEN (default) or REGISTERED' }),
  onlineLink: Nullable(Type.String({ maxLength: 2048 })),
  country: Nullable(text(100)),
  region: Nullable(text(200)),
  locality: Nullable(text(200)),
  locationTitle: Nullable(text(200)),
  locationAddress: Nullable(text(500)),
  locationDetail: Nullable(text(500)),
  locationDescription: Nullable(text(2000)),
  latitude: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
  locationHidden: Type.Boolean(),
  guestHidden: Type.Boolean(),
  eventCategories: Type.Array(StringEnum(EVENT_CATEGORIES), {
    maxItems: 10,
    uniqueItems: true,
    description: 'Codes from the event-categories catalog',
  }),
  eventSubjects: Type.Array(StringEnum(EVENT_SUBJECTS), {
    maxItems: 10,
    uniqueItems: true,
    description: 'Codes from the event-subjects catalog',
  }),
};
const optionalEventFields = Type.Partial(Type.Object(eventFields)).properties;

export const HOST_ROLES = ['ORGANIZER', 'SPEAKER', 'SPONSOR', 'PARTNER'] as const;
const hostType = StringEnum(['COMPANY', 'MEMBER']);
const hostHandle = (description: string) =>
  Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_-]+$', description });
const hostRoles = Type.Array(StringEnum(HOST_ROLES), { minItems: 1, maxItems: 4, uniqueItems: true });

export const EventCreateRequest = Type.Object(
  {
    ...optionalEventFields,
    hosts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            hostType,
            hostId: hostHandle('Handle of the company or member'),
            roleTypes: Type.Optional(
              Type.Array(StringEnum(HOST_ROLES), { maxItems: 4, uniqueItems: true, description: 'Default ORGANIZER' }),
            ),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20, description: 'Hosts to add with the event' },
      ),
    ),
    eventName: eventFields.eventName,
    startAt: eventFields.startAt,
    endAt: eventFields.endAt,
  },
  {
    additionalProperties: false,
    title: 'EventCreateRequest',
    examples: [
      {
        eventName: '판교 TypeScript 밋업',
        description: '실무 이야기',
        startAt: '2026-12-05T19:00:00+09:00',
        endAt: '2026-12-05T21:00:00+09:00',
        eventOpenType: 'OFFLINE',
        locationTitle: 'Acme 라운지',
        locationAddress: '판교역로 1',
        eventCategories: ['NETWORKING'],
        eventSubjects: ['TECHNOLOGY'],
      },
    ],
  },
);

export const EventUpdateRequest = Type.Object(optionalEventFields, {
  additionalProperties: false,
  minProperties: 1,
  title: 'EventUpdateRequest',
  examples: [{ eventName: '판교 TypeScript 밋업 #2', guestHidden: true }],
});

export const EventWriteResponse = Type.Object(
  { eventId: Type.String(), webUrl: Type.String() },
  { title: 'EventWriteResponse' },
);

const ticketFields = {
  ticketName: Type.String({ minLength: 1, maxLength: 200 }),
  description: Nullable(text(5000)),
  approvalRequired: Type.Boolean(),
  waitingRequired: Type.Boolean(),
  maxCount: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  salesStartAt: Nullable(dateTime('Sales start')),
  salesEndAt: Nullable(dateTime('Sales end')),
  formFields: Type.Array(FormField, { maxItems: 50, description: 'Questions asked of guests' }),
};
const price = Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'In currency units' });
const currency = Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; default KRW' }));
export const FreeTicketCreateRequest = Type.Object(
  {
    ...Type.Partial(Type.Object(ticketFields)).properties,
    ticketName: ticketFields.ticketName,
  },
  {
    additionalProperties: false,
    title: 'FreeTicketCreateRequest',
    examples: [
      {
        ticketName: '일반 참가',
        description: '누구나',
        approvalRequired: false,
        waitingRequired: true,
        maxCount: 100,
        salesStartAt: '2026-11-22T00:00:00Z',
        salesEndAt: '2026-12-05T09:00:00Z',
        formFields: [],
      },
    ],
  },
);
export const ChargedTicketCreateRequest = Type.Object(
  {
    ...Type.Partial(Type.Object(ticketFields)).properties,
    ticketName: ticketFields.ticketName,
    price,
    currency: Type.Optional(currency),
  },
  {
    additionalProperties: false,
    title: 'ChargedTicketCreateRequest',
    examples: [
      { ticketName: '얼리버드', price: 15000, currency: 'KRW', maxCount: 50, salesEndAt: '2026-12-01T00:00:00Z' },
    ],
  },
);
export const TicketUpdateRequest = Type.Partial(
  Type.Object({
    ...ticketFields,
    ticketType: Nullable(StringEnum(['FREE', 'CHARGED'], { description: 'CHARGED needs a price' })),
    price: Nullable(price),
    currency,
  }),
  { additionalProperties: false, minProperties: 1, title: 'TicketUpdateRequest' },
);

const clock = (description: string) =>
  Type.String({
    pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
    description: `${description}, HH:mm in the service time zone`,
    examples: ['19:00'],
  });
const sessionFields = {
  sessionName: Type.String({ minLength: 1, maxLength: 200 }),
  day: Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'YYYY-MM-DD in the service time zone; with startTime and endTime',
    examples: ['2026-12-05'],
  }),
  startTime: clock('Start'),
  endTime: clock('End'),
  videoUrl: Nullable(Type.String({ maxLength: 2048, pattern: '^https?://' })),
  thumbnailPath: Nullable(
    Type.String({ maxLength: 2048, pattern: '^https?://', description: 'An http(s) image address' }),
  ),
  sortNo: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Order among the sessions; default 0' }),
  speakers: Type.Array(
    Type.Object(
      {
        speakerName: Type.String({ minLength: 1, maxLength: 200 }),
        jobOrDept: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
      },
      { additionalProperties: false },
    ),
    { maxItems: 20 },
  ),
  title: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Same as sessionName (the name this service used first)',
  }),
  description: Nullable(text(5000)),
  startAt: Nullable(dateTime('Start (instead of day and startTime)')),
  endAt: Nullable(dateTime('End (instead of day and endTime)')),
};
/** sessionName (or title) is required; the service checks it, since either name may carry it. */
export const SessionCreateRequest = Type.Partial(Type.Object(sessionFields), {
  additionalProperties: false,
  title: 'SessionCreateRequest',
});
export const SessionUpdateRequest = Type.Partial(Type.Object(sessionFields), {
  additionalProperties: false,
  minProperties: 1,
  title: 'SessionUpdateRequest',
});

const faqFields = {
  categoryName: Type.String({ minLength: 1, maxLength: 100, description: 'Default FAQ' }),
  title: Type.String({ minLength: 1, maxLength: 500 }),
  content: Type.String({ minLength: 1, maxLength: 5000 }),
  sortNo: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Order among the FAQs; default 0' }),
  question: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'Same as title (the name this service used first)',
  }),
  answer: Type.String({ minLength: 1, maxLength: 5000, description: 'Same as content' }),
};
/** title (or question) and content (or answer) are required; the service checks them, since either name may carry them. */
export const FaqCreateRequest = Type.Partial(Type.Object(faqFields), {
  additionalProperties: false,
  title: 'FaqCreateRequest',
});
export const FaqUpdateRequest = Type.Partial(Type.Object(faqFields), {
  additionalProperties: false,
  minProperties: 1,
  title: 'FaqUpdateRequest',
});

/** A host by hostId and one role (the reference), or by id and several roles (this service first). */
export const HostCreateRequest = Type.Object(
  {
    hostType,
    hostId: Type.Optional(hostHandle('Handle of the company or member')),
    role: Type.Optional(StringEnum(HOST_ROLES)),
    id: Type.Optional(hostHandle('Same as hostId')),
    roles: Type.Optional(hostRoles),
  },
  { additionalProperties: false, title: 'HostCreateRequest' },
);
export const HostUpdateRequest = Type.Object(
  {
    role: Type.Optional(StringEnum(HOST_ROLES)),
    roles: Type.Optional(hostRoles),
  },
  { additionalProperties: false, minProperties: 1, title: 'HostUpdateRequest' },
);

export type EventCreateInput = Static<typeof EventCreateRequest>;
export type EventUpdateInput = Static<typeof EventUpdateRequest>;
export type TicketInput = Static<typeof TicketUpdateRequest>;
export type SessionInput = Static<typeof SessionUpdateRequest>;
export type FaqInput = Static<typeof FaqUpdateRequest>;
export type HostInput = Static<typeof HostCreateRequest>;
