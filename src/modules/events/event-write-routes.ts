import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ImageUploads } from '../../media/image-uploads.js';
import { UPLOAD_WRITE_ERRORS, WRITE_ERRORS } from '../../schemas/common.js';
import { MultipartBody } from '../../schemas/multipart.js';
import { ApiError } from '../../shared/api-error.js';
import { fingerprint, type Idempotency } from '../../db/idempotency.js';
import { bodyStage, checkJson, readMultipart } from '../../shared/multipart-body.js';
import { IdempotencyHeaders } from '../../schemas/common.js';
import { EventIdParams } from './event-schemas.js';
import { EventCreateRequest, EventUpdateRequest, EventWriteResponse } from './event-write-schemas.js';
import type { EventWriteService } from './event-write-service.js';

const BANNER = { banner: { max: 1, description: 'Banner image: JPEG, PNG, WebP or GIF' } };
const ATTACHMENTS = {
  ...BANNER,
  attachments: {
    max: 10,
    description: 'Up to 10 images attached to the event (JPEG, PNG, WebP or GIF; the file name is kept)',
  },
};

/** Events of a company (scope event:write): create, update with a banner, delete. */
export const eventWriteRoutes: FastifyPluginAsyncTypebox<{
  events: EventWriteService;
  idempotency: Idempotency;
  limits: { maxRequestBytes: number; maxFileBytes: number };
  uploads: ImageUploads;
}> = async (app, opts) => {
  const { events, idempotency, limits, uploads } = opts;
  const security = [{ bearer: [] }];
  const read = async (request: Parameters<typeof readMultipart>[0]) => {
    const { json, files } = await readMultipart(request, {
      jsonPart: 'request',
      fileParts: { banner: 1, attachments: 10 },
      ...limits,
    });
    const [banner] = await uploads.check(files.banner ?? [], 'banner', request.token!.clientId);
    return {
      json,
      banner,
      attachments: await uploads.check(files.attachments ?? [], 'attachments', request.token!.clientId),
    };
  };
  const createBody = bodyStage(async (request) => {
    const { json, banner, attachments } = await read(request);
    if (json === undefined) throw new ApiError('C0002', 'Part "request" is required', 'request');
    return { input: checkJson(EventCreateRequest, json, 'request'), banner, attachments };
  });
  const updateBody = bodyStage(async (request) => {
    const { json, banner, attachments } = await read(request);
    if (attachments.length > 0)
      throw new ApiError('C0002', 'Attachments are given when the event is created', 'attachments');
    if (json === undefined && !banner)
      throw new ApiError('C0002', 'Send a "request" part with the fields to change, or a "banner"', 'request');
    return { input: json === undefined ? {} : checkJson(EventUpdateRequest, json, 'request'), banner };
  });

  app.post(
    '/api/v1/events',
    {
      config: { bearerScope: 'event:write', rateLimitOperation: 'event.create' },
      preHandler: createBody.preHandler,
      schema: {
        tags: ['Events'],
        operationId: 'createEvent',
        summary: 'Create an event for a company',
        description:
          'Multipart: a JSON `request` part and an optional `banner`. Needs ENT_EVENT_CREATE at the company `companyId`. The event is published at once.',
        security,
        consumes: ['multipart/form-data'],
        querystring: Type.Object({
          companyId: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              pattern: '^[A-Za-z0-9_-]+$',
              description: 'Company handle (required)',
            }),
          ),
        }),
        headers: IdempotencyHeaders,
        body: MultipartBody(EventCreateRequest, ATTACHMENTS, 'EventCreateMultipart'),
        response: { 201: EventWriteResponse, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { input, banner, attachments } = createBody.of(request);
      const route = `POST /api/v1/events?companyId=${request.query.companyId ?? ''}`;
      const created = (event: { eventId: string; webUrl: string }) => ({
        status: 201,
        body: event,
        location: `/api/v1/events/${event.eventId}`,
      });
      return idempotency.respond(
        request,
        reply,
        fingerprint(route, input, [...(banner ? [banner] : []), ...attachments]),
        {
          create: () => events.create(request.token!.userId, request.query.companyId, input, banner, attachments),
          replay: (eventId) => Promise.resolve(events.created(eventId)),
          answer: created,
        },
      );
    },
  );

  app.patch(
    '/api/v1/events/:eventId',
    {
      config: { bearerScope: 'event:write', rateLimitOperation: 'event.update' },
      preHandler: updateBody.preHandler,
      schema: {
        tags: ['Events'],
        operationId: 'patchEvent',
        summary: 'Update an event (only the fields sent change)',
        description:
          'Multipart: a JSON `request` part and/or a `banner` that replaces the current one. Needs ENT_EVENT_UPDATE company-wide or on the event.',
        security,
        consumes: ['multipart/form-data'],
        params: EventIdParams,
        body: MultipartBody(EventUpdateRequest, BANNER, 'EventUpdateMultipart'),
        response: { 200: EventWriteResponse, ...UPLOAD_WRITE_ERRORS },
      },
    },
    async (request) => {
      const { input, banner } = updateBody.of(request);
      return events.update(request.token!.userId, request.params.eventId, input, banner);
    },
  );

  app.delete(
    '/api/v1/events/:eventId',
    {
      config: { bearerScope: 'event:write', rateLimitOperation: 'event.delete' },
      schema: {
        tags: ['Events'],
        operationId: 'deleteEvent',
        summary: 'Delete an event',
        description: 'Needs ENT_EVENT_DELETE company-wide or on the event. The event disappears from reads at once.',
        security,
        params: EventIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await events.remove(request.token!.userId, request.params.eventId);
      return reply.status(204).send(null);
    },
  );
};
