import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, NOT_MODIFIED, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import {
  EventDetail,
  EventIdParams,
  EventPage,
  EventSearchQuery,
  FaqList,
  SessionList,
  TicketList,
} from './event-schemas.js';
import type { EventService } from './event-service.js';

export const eventRoutes: FastifyPluginAsyncTypebox<{ events: EventService }> = async (app, { events }) => {
  app.get(
    '/api/v1/events',
    {
      config: { auth: 'apiKey', longReads: true },
      schema: {
        tags: ['Events'],
        operationId: 'searchEvents',
        summary: 'Search events',
        description: 'Published events. Values of one filter combine with OR, different filters with AND.',
        security: [{ apiKey: [] }],
        querystring: EventSearchQuery,
        response: { 200: EventPage, ...NOT_MODIFIED, ...errorResponses(400, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => events.search(request.query, request.locale),
  );

  app.get(
    '/api/v1/events/:eventId',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Events'],
        operationId: 'getEvent',
        summary: 'Read an event',
        description: 'A published event with its tickets, sessions, FAQs and hosts.',
        security: [{ apiKey: [] }],
        params: EventIdParams,
        response: { 200: EventDetail, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => events.detail(request.params.eventId, request.locale),
  );

  const list = (
    path: 'tickets' | 'sessions' | 'faqs',
    summary: string,
    response: typeof TicketList | typeof SessionList | typeof FaqList,
  ) =>
    app.get(
      `/api/v1/events/:eventId/${path}`,
      {
        config: { auth: 'apiKey' },
        schema: {
          tags: ['Events'],
          operationId: `getEvent${path[0]!.toUpperCase()}${path.slice(1)}`,
          summary,
          security: [{ apiKey: [] }],
          params: EventIdParams,
          response: { 200: response, ...NOT_MODIFIED, ...errorResponses(400, 404, ...PUBLIC_READ_ERRORS) },
        },
      },
      async (request) => events[path](request.params.eventId),
    );
  list('tickets', 'The tickets of an event', TicketList);
  list(
    'sessions',
    'The sessions of an event, by time slot (day, start and end time in the service time zone)',
    SessionList,
  );
  list('faqs', 'The FAQs of an event, by category', FaqList);
};
