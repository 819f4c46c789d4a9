import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';
import { EVENT_OPEN_TYPES } from './event-schemas.js';

const dateTime = (description: string) => Type.String({ minLength: 10, maxLength: 40, description: `${description}; ISO 8601 (no zone: service time zone)`, examples: ['2026-12-05T19:00:00+09:00'] });
const text = (max: number) => Type.String({ maxLength: max });

const eventFields = {
  eventName: Type.String({ minLength: 1, maxLength: 200 }),
  description: text(20_000),
  startAt: dateTime('Start'),
  endAt: dateTime('End'),
  eventOpenType: StringEnum(EVENT_OPEN_TYPES, { description: 'ONLINE, OFFLINE (default) or HYBRID' }),
  onlineLink: Type.String({ maxLength: 2048 }),
  country: text(100), region: text(200), locality: text(200),
  locationTitle: text(200), locationAddress: text(500), locationDetail: text(500), locationDescription: text(2000),
  locationHidden: Type.Boolean(),
  guestHidden: Type.Boolean(),
  eventCategories: Type.Array(Type.String(), { maxItems: 10, uniqueItems: true, description: 'Codes from the event-categories catalog' }),
  eventSubjects: Type.Array(Type.String(), { maxItems: 10, uniqueItems: true, description: 'Codes from the event-subjects catalog' }),
};
const optionalEventFields = Type.Partial(Type.Object(eventFields)).properties;

export const EventCreateRequest = Type.Object({
  ...optionalEventFields,
  eventName: eventFields.eventName,
  startAt: eventFields.startAt,
  endAt: eventFields.endAt,
}, {
  additionalProperties: false, title: 'EventCreateRequest',
  examples: [{
    eventName: '판교 TypeScript 밋업', description: '실무 이야기', startAt: '2026-12-05T19:00:00+09:00', endAt: '2026-12-05T21:00:00+09:00',
    eventOpenType: 'OFFLINE', locationTitle: 'Acme 라운지', locationAddress: '판교역로 1', eventCategories: ['MEETUP'], eventSubjects: ['DEVELOPMENT'],
  }],
});

export const EventUpdateRequest = Type.Object(optionalEventFields, {
  additionalProperties: false, minProperties: 1, title: 'EventUpdateRequest', examples: [{ eventName: '판교 TypeScript 밋업 #2', guestHidden: true }],
});

export const EventWriteResponse = Type.Object({ eventId: Type.String(), webUrl: Type.String() }, { title: 'EventWriteResponse' });

const ticketFields = {
  ticketName: Type.String({ minLength: 1, maxLength: 200 }),
  description: text(5000),
  approvalRequired: Type.Boolean(),
  waitingRequired: Type.Boolean(),
  maxCount: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  salesStartAt: Nullable(dateTime('Sales start')),
  salesEndAt: Nullable(dateTime('Sales end')),
  formFields: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50, description: 'Questions asked of guests (free-form objects)' }),
};
export const FreeTicketCreateRequest = Type.Object({
  ...Type.Partial(Type.Object(ticketFields)).properties,
  ticketName: ticketFields.ticketName,
}, {
  additionalProperties: false, title: 'FreeTicketCreateRequest',
  examples: [{ ticketName: '일반 참가', description: '누구나', approvalRequired: false, waitingRequired: true, maxCount: 100, salesStartAt: '2026-11-22T00:00:00Z', salesEndAt: '2026-12-05T09:00:00Z', formFields: [] }],
});
export const TicketUpdateRequest = Type.Partial(Type.Object(ticketFields), { additionalProperties: false, minProperties: 1, title: 'TicketUpdateRequest' });

const sessionFields = { title: Type.String({ minLength: 1, maxLength: 200 }), description: text(5000), startAt: Nullable(dateTime('Start')), endAt: Nullable(dateTime('End')) };
export const SessionCreateRequest = Type.Object({ ...Type.Partial(Type.Object(sessionFields)).properties, title: sessionFields.title }, { additionalProperties: false, title: 'SessionCreateRequest' });
export const SessionUpdateRequest = Type.Partial(Type.Object(sessionFields), { additionalProperties: false, minProperties: 1, title: 'SessionUpdateRequest' });

const faqFields = { question: Type.String({ minLength: 1, maxLength: 500 }), answer: Type.String({ minLength: 1, maxLength: 5000 }) };
export const FaqCreateRequest = Type.Object(faqFields, { additionalProperties: false, title: 'FaqCreateRequest' });
export const FaqUpdateRequest = Type.Partial(Type.Object(faqFields), { additionalProperties: false, minProperties: 1, title: 'FaqUpdateRequest' });

export const HOST_ROLES = ['ORGANIZER', 'SPEAKER', 'SPONSOR', 'PARTNER'] as const;
export const HostCreateRequest = Type.Object({
  hostType: StringEnum(['COMPANY', 'MEMBER']),
  id: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_-]+$', description: 'Handle of the company or member' }),
  roles: Type.Array(StringEnum(HOST_ROLES), { minItems: 1, maxItems: 4, uniqueItems: true }),
}, { additionalProperties: false, title: 'HostCreateRequest' });
export const HostUpdateRequest = Type.Object({ roles: HostCreateRequest.properties.roles }, { additionalProperties: false, title: 'HostUpdateRequest' });

export type EventCreateInput = Static<typeof EventCreateRequest>;
export type EventUpdateInput = Static<typeof EventUpdateRequest>;
export type TicketInput = Static<typeof TicketUpdateRequest>;
export type SessionInput = Static<typeof SessionUpdateRequest>;
export type FaqInput = Static<typeof FaqUpdateRequest>;
export type HostInput = Static<typeof HostCreateRequest>;
