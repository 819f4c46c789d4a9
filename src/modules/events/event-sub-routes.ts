import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, RequestId } from '../../schemas/common.js';
import { fingerprint, type Idempotency } from '../../db/idempotency.js';
import { WRITE_ERRORS } from '../../schemas/common.js';
import {
  FaqCreateRequest,
  FaqUpdateRequest,
  ChargedTicketCreateRequest,
  FreeTicketCreateRequest,
  HostCreateRequest,
  HostUpdateRequest,
  SessionCreateRequest,
  SessionUpdateRequest,
  TicketUpdateRequest,
} from './event-write-schemas.js';
import type { EventSubService } from './event-sub-service.js';

const Id = (name: string) =>
  Type.Object(
    { [name]: Type.Integer({ format: 'int64' }) },
    { title: `${name[0]!.toUpperCase()}${name.slice(1)}Response` },
  );
const EventId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const SubId = RequestId();
const eventParams = Type.Object({ eventId: EventId });
const TicketParams = Type.Object({ eventId: EventId, ticketId: SubId });
const SessionParams = Type.Object({ eventId: EventId, sessionId: SubId });
const FaqParams = Type.Object({ eventId: EventId, faqId: SubId });
const HostParams = Type.Object({ eventId: EventId, hostId: SubId });

/** Tickets, sessions, FAQs and hosts of an event (scope event:write, capability ENT_EVENT_SUB_MANAGE). */
export const eventSubRoutes: FastifyPluginAsyncTypebox<{ events: EventSubService; idempotency: Idempotency }> = async (
  app,
  { events, idempotency },
) => {
  const common = { tags: ['Events'], security: [{ bearer: [] }] };
  const create = { bearerScope: 'event:write', rateLimitOperation: 'event.sub.create' } as const;
  const update = { bearerScope: 'event:write', rateLimitOperation: 'event.sub.update' } as const;
  const remove = { bearerScope: 'event:write', rateLimitOperation: 'event.sub.delete' } as const;
  const deleted = { 204: Type.Null({ description: 'Deleted' }), ...WRITE_ERRORS };
  /**
   * A create under Idempotency-Key: 201 with `{ [idName]: id }` and the new sub-resource's `Location`, which a
   * replay rebuilds from the id alone.
   */
  const created = (
    request: FastifyRequest,
    reply: FastifyReply,
    eventId: string,
    kind: string,
    create: () => Promise<Record<string, number>>,
  ) => {
    const idName = `${kind.slice(0, -1)}Id`;
    const answer = (id: number) => ({
      status: 201,
      body: { [idName]: id },
      location: `/api/v1/events/${eventId}/${kind}/${id}`,
    });
    return idempotency.respond(request, reply, fingerprint(`POST ${request.url}`, request.body), {
      create: async () => (await create())[idName]!,
      replay: (id) => Promise.resolve(Number(id)),
      answer,
    });
  };

  app.post(
    '/api/v1/events/:eventId/tickets/free',
    {
      config: create,
      schema: {
        ...common,
        operationId: 'createFreeEventTicket',
        summary: 'Create a free ticket',
        params: eventParams,
        headers: IdempotencyHeaders,
        body: FreeTicketCreateRequest,
        response: { 201: Id('ticketId'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      created(request, reply, request.params.eventId, 'tickets', () =>
        events.createTicket(request.token!.userId, request.params.eventId, request.body, 'FREE'),
      ),
  );
  app.post(
    '/api/v1/events/:eventId/tickets/charged',
    {
      config: create,
      schema: {
        ...common,
        operationId: 'createChargedEventTicket',
        summary: 'Create a paid ticket',
        description: 'Like a free ticket, with a `price` and a `currency` (ISO 4217, default KRW).',
        params: eventParams,
        headers: IdempotencyHeaders,
        body: ChargedTicketCreateRequest,
        response: { 201: Id('ticketId'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      created(request, reply, request.params.eventId, 'tickets', () =>
        events.createTicket(request.token!.userId, request.params.eventId, request.body, 'CHARGED'),
      ),
  );
  app.patch(
    '/api/v1/events/:eventId/tickets/:ticketId',
    {
      config: update,
      schema: {
        ...common,
        operationId: 'patchEventTicket',
        summary: 'Update a ticket',
        params: TicketParams,
        body: TicketUpdateRequest,
        response: { 200: Id('ticketId'), ...WRITE_ERRORS },
      },
    },
    async (request) =>
      events.updateTicket(request.token!.userId, request.params.eventId, request.params.ticketId, request.body),
  );
  app.delete(
    '/api/v1/events/:eventId/tickets/:ticketId',
    {
      config: remove,
      schema: {
        ...common,
        operationId: 'deleteEventTicket',
        summary: 'Delete a ticket',
        params: TicketParams,
        response: deleted,
      },
    },
    async (request, reply) => {
      await events.deleteSub(request.token!.userId, request.params.eventId, 'ticket', request.params.ticketId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/events/:eventId/sessions',
    {
      config: create,
      schema: {
        ...common,
        operationId: 'createEventSession',
        summary: 'Add a session',
        params: eventParams,
        headers: IdempotencyHeaders,
        body: SessionCreateRequest,
        response: { 201: Id('sessionId'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      created(request, reply, request.params.eventId, 'sessions', () =>
        events.createSession(request.token!.userId, request.params.eventId, request.body),
      ),
  );
  app.patch(
    '/api/v1/events/:eventId/sessions/:sessionId',
    {
      config: update,
      schema: {
        ...common,
        operationId: 'patchEventSession',
        summary: 'Update a session',
        params: SessionParams,
        body: SessionUpdateRequest,
        response: { 200: Id('sessionId'), ...WRITE_ERRORS },
      },
    },
    async (request) =>
      events.updateSession(request.token!.userId, request.params.eventId, request.params.sessionId, request.body),
  );
  app.delete(
    '/api/v1/events/:eventId/sessions/:sessionId',
    {
      config: remove,
      schema: {
        ...common,
        operationId: 'deleteEventSession',
        summary: 'Delete a session',
        params: SessionParams,
        response: deleted,
      },
    },
    async (request, reply) => {
      await events.deleteSub(request.token!.userId, request.params.eventId, 'session', request.params.sessionId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/events/:eventId/faqs',
    {
      config: create,
      schema: {
        ...common,
        operationId: 'createEventFaq',
        summary: 'Add a FAQ',
        params: eventParams,
        headers: IdempotencyHeaders,
        body: FaqCreateRequest,
        response: { 201: Id('faqId'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      created(request, reply, request.params.eventId, 'faqs', () =>
        events.createFaq(request.token!.userId, request.params.eventId, request.body),
      ),
  );
  app.patch(
    '/api/v1/events/:eventId/faqs/:faqId',
    {
      config: update,
      schema: {
        ...common,
        operationId: 'patchEventFaq',
        summary: 'Update a FAQ',
        params: FaqParams,
        body: FaqUpdateRequest,
        response: { 200: Id('faqId'), ...WRITE_ERRORS },
      },
    },
    async (request) =>
      events.updateFaq(request.token!.userId, request.params.eventId, request.params.faqId, request.body),
  );
  app.delete(
    '/api/v1/events/:eventId/faqs/:faqId',
    {
      config: remove,
      schema: {
        ...common,
        operationId: 'deleteEventFaq',
        summary: 'Delete a FAQ',
        params: FaqParams,
        response: deleted,
      },
    },
    async (request, reply) => {
      await events.deleteSub(request.token!.userId, request.params.eventId, 'faq', request.params.faqId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/v1/events/:eventId/hosts',
    {
      config: create,
      schema: {
        ...common,
        operationId: 'addEventHost',
        summary: 'Add a host (company or member)',
        params: eventParams,
        headers: IdempotencyHeaders,
        body: HostCreateRequest,
        response: { 201: Id('hostId'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      created(request, reply, request.params.eventId, 'hosts', () =>
        events.createHost(request.token!.userId, request.params.eventId, request.body),
      ),
  );
  app.patch(
    '/api/v1/events/:eventId/hosts/:hostId',
    {
      config: update,
      schema: {
        ...common,
        operationId: 'updateEventHostRole',
        summary: "Change a host's roles",
        params: HostParams,
        body: HostUpdateRequest,
        response: { 200: Id('hostId'), ...WRITE_ERRORS },
      },
    },
    async (request) =>
      events.updateHost(request.token!.userId, request.params.eventId, request.params.hostId, request.body),
  );
  app.delete(
    '/api/v1/events/:eventId/hosts/:hostId',
    {
      config: remove,
      schema: {
        ...common,
        operationId: 'removeEventHost',
        summary: 'Remove a host',
        params: HostParams,
        response: deleted,
      },
    },
    async (request, reply) => {
      await events.deleteSub(request.token!.userId, request.params.eventId, 'host', request.params.hostId);
      return reply.status(204).send(null);
    },
  );
};
