/**
 * The console's webhook pages (docs/webhooks.md): an app's endpoints, each with its signing secret (shown once,
 * rotated with an overlap), its deliveries and their attempts, a redelivery, and a replay of a time range. Forms
 * follow the console's rules (console-guard.ts): form token, Post/Redirect/Get for secrets, a confirmation for
 * what cannot be undone, another user's app or endpoint is 404; every form here needs a confirmed address, since each
 * makes or steers what an app sends.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHANGE_TYPES } from '../../change-feed/change-log.js';
import { changeItem } from '../../change-feed/change-item.js';
import type { DeliveryState } from '../../db/schema.js';
import { OVERLAPS, isOverlap } from '../apps/app-credentials.js';
import { DISABLE_AFTER_MS } from '../webhooks/retry-policy.js';
import { targetProblem } from '../webhooks/target-address.js';
import { testEventDelivery } from '../webhooks/test-events.js';
import { isChangeType, WebhookError, type EndpointRow } from '../webhooks/webhook-endpoints.js';
import {
  ConfirmForm,
  OverlapForm,
  ReplayForm,
  TestEventForm,
  TokenOnlyForm,
  WebhookForm,
  type FormOf,
} from './console-forms.js';
import type { ConsoleApp, ConsoleUser } from './console-guard.js';
import type { ConsoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';
import { fill, type ConsoleText } from './console-text.js';

type User = ConsoleUser;
type OwnedApp = ConsoleApp;

const STATES: DeliveryState[] = ['pending', 'delivered', 'failed'];
/** `YYYY-MM-DDTHH:mm` (a datetime-local field), read as UTC. */
const utcField = (value: unknown): number | null => {
  const text = String(value ?? '');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return null;
  const at = Date.parse(`${text}Z`);
  return Number.isNaN(at) ? null : at;
};

export const webhookPages: FastifyPluginAsyncTypebox<{ kit: ConsoleKit; opts: ConsoleOptions }> = async (
  app,
  { kit, opts },
) => {
  const pages = kit;
  const deps = { ...opts.webhooks, database: opts.database.db, clock: opts.clock };
  app.addHook('onRoute', (route) => {
    if (route.method === 'POST') route.config = { ...route.config, proven: true };
  });
  const confirmed = (request: FastifyRequest) => (request.body as FormOf<typeof ConfirmForm>).confirm === 'yes';
  const { endpoints, clock } = deps;
  /** Retries come seconds apart: the webhook pages show times to the second. */
  const seconds = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const base = (appId: number) => `/console/apps/${appId}/webhooks`;

  const describe = (endpoint: EndpointRow, t: ConsoleText) => {
    const types = JSON.parse(endpoint.event_types) as string[];
    const failingSince = endpoint.failing_since === null ? null : Number(endpoint.failing_since);
    return {
      id: endpoint.id,
      url: endpoint.url,
      types,
      typesText: types.length === 0 ? t.wh.allTypes : types.join(', '),
      disabled: endpoint.disabled_at !== null,
      disabledReason: endpoint.disabled_reason,
      disabledAt: endpoint.disabled_at === null ? null : Number(endpoint.disabled_at),
      failingSince,
      disablesAt: failingSince === null ? null : failingSince + DISABLE_AFTER_MS,
      previousUntil:
        endpoint.previous_secret_sealed !== null && Number(endpoint.previous_secret_until ?? 0) > clock()
          ? Number(endpoint.previous_secret_until)
          : null,
    };
  };

  /** The endpoint named in the path, if it belongs to the app. */
  async function ownedEndpoint(request: FastifyRequest, appId: number): Promise<EndpointRow | undefined> {
    const id = (request.params as { endpointId: string }).endpointId;
    return /^ep_[0-9A-Za-z]{1,40}$/.test(id) ? endpoints.find(appId, id) : undefined;
  }

  /** The user, the app and the endpoint the path names, when the app has it; otherwise null, a 404 sent. */
  async function reached(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ user: User; owned: OwnedApp; endpoint: EndpointRow } | null> {
    const user = request.consoleUser!;
    const owned = request.consoleApp!;
    const endpoint = await ownedEndpoint(request, owned.id);
    if (!endpoint) {
      await pages.notFound(request, reply);
      return null;
    }
    return { user, owned, endpoint };
  }

  /** The form's URL and types, or the problems to show beside the fields. */
  function readForm(
    form: FormOf<typeof WebhookForm>,
    t: ConsoleText,
  ): { url: string; types: string[] } | { fieldErrors: Record<string, string> } {
    const url = (form.url ?? '').trim();
    const types = form.types ?? [];
    const problem = targetProblem(url, deps.allowLoopback);
    const fieldErrors: Record<string, string> = {};
    if (problem) fieldErrors.url = t.wh.urlRule + problem;
    if (!types.every(isChangeType)) fieldErrors.types = t.invalid;
    return Object.keys(fieldErrors).length > 0 ? { fieldErrors } : { url, types: [...new Set(types)] };
  }

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    owned: OwnedApp,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const t = pages.text(request);
    const list = (await endpoints.list(owned.id)).map((e) => describe(e, t));
    const max = endpoints.endpointsPerApp;
    return pages.render(
      request,
      reply,
      'webhooks',
      {
        pageTitle: `${t.wh.webhooks}: ${owned.name}`,
        user,
        section: 'apps',
        app: owned,
        endpoints: list,
        typeChoices: CHANGE_TYPES,
        quota: fill(t.wh.quota, { used: list.length, max }),
        full: list.length >= max ? fill(t.wh.tooMany, { max }) : null,
        urlLabel: deps.allowLoopback ? t.wh.urlLoopback : t.wh.url,
        ...extra,
      },
      status,
    );
  }

  async function endpointPage(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    owned: OwnedApp,
    endpoint: EndpointRow,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const t = pages.text(request);
    const filter = String((request.query as { state?: unknown }).state ?? '');
    const state = STATES.includes(filter as DeliveryState) ? (filter as DeliveryState) : undefined;
    const deliveries = (await endpoints.deliveries(endpoint.id, { state, limit: 100 })).map((d) => ({
      id: d.id,
      eventId: d.event_id,
      type: d.event_type,
      resource: d.resource_key,
      state: d.state,
      attempts: Number(d.attempts),
      createdAt: Number(d.created_at),
      lastStatus: d.last_status,
      lastDuration: d.last_duration_ms,
      lastError: d.last_error,
      nextAttempt: d.next_attempt_at === null ? null : Number(d.next_attempt_at),
    }));
    return pages.render(
      request,
      reply,
      'webhook-endpoint',
      {
        pageTitle: `${t.wh.webhooks}: ${endpoint.url}`,
        user,
        section: 'apps',
        app: owned,
        seconds,
        endpoint: describe(endpoint, t),
        deliveries,
        state: state ?? '',
        states: STATES,
        typeChoices: CHANGE_TYPES,
        urlLabel: deps.allowLoopback ? t.wh.urlLoopback : t.wh.url,
        ...extra,
      },
      status,
    );
  }

  /** Runs a change to an endpoint of the user's app, then shows the endpoint's page with a notice or the error. */
  async function endpointChange(
    request: FastifyRequest,
    reply: FastifyReply,
    change: (
      owned: OwnedApp,
      endpoint: EndpointRow,
      t: ConsoleText,
    ) => Promise<
      { notice?: string; redirect?: string } | { error: string; status: number; extra?: Record<string, unknown> }
    >,
  ) {
    const target = await reached(request, reply);
    if (!target) return reply;
    const { user, owned, endpoint } = target;
    const t = pages.text(request);
    try {
      const result = await change(owned, endpoint, t);
      if ('error' in result)
        return await endpointPage(
          request,
          reply,
          user,
          owned,
          endpoint,
          { error: result.error, ...result.extra },
          result.status,
        );
      if (result.redirect) return await reply.redirect(result.redirect, 303);
      return await endpointPage(request, reply, user, owned, (await endpoints.find(owned.id, endpoint.id))!, {
        notice: result.notice,
      });
    } catch (err) {
      if (err instanceof WebhookError)
        return endpointPage(
          request,
          reply,
          user,
          owned,
          endpoint,
          { error: err.message === 'enable the endpoint first' ? t.wh.enableFirst : err.message },
          409,
        );
      throw err;
    }
  }

  app.get('/console/apps/:appId/webhooks', { schema: { hide: true } }, async (request, reply) => {
    return listPage(request, reply, request.consoleUser!, request.consoleApp!);
  });

  app.post('/console/apps/:appId/webhooks', { schema: { hide: true, body: WebhookForm } }, async (request, reply) => {
    const user = request.consoleUser!;
    const owned = request.consoleApp!;
    const t = pages.text(request);
    const form = request.body;
    const read = readForm(form, t);
    if ('fieldErrors' in read) {
      return listPage(
        request,
        reply,
        user,
        owned,
        {
          error: t.fixBelow,
          fieldErrors: read.fieldErrors,
          draft: { url: form.url ?? '', types: form.types ?? [] },
        },
        400,
      );
    }
    try {
      const { id, secret } = await endpoints.create(owned.id, read.url, read.types, clock());
      const token = await pages.reveals.keep(user.id, owned.id, 'signing-secret', `${id} ${secret}`);
      return await reply.redirect(`${base(owned.id)}/${id}?shown=${token}`, 303);
    } catch (err) {
      if (err instanceof WebhookError)
        return listPage(
          request,
          reply,
          user,
          owned,
          {
            error: fill(t.wh.tooMany, { max: endpoints.endpointsPerApp }),
            draft: { url: read.url, types: read.types },
          },
          409,
        );
      throw err;
    }
  });

  app.get('/console/apps/:appId/webhooks/:endpointId', { schema: { hide: true } }, async (request, reply) => {
    const target = await reached(request, reply);
    if (!target) return reply;
    const { user, owned, endpoint } = target;
    const { shown: token, sent } = request.query as { shown?: unknown; sent?: unknown };
    if (typeof token !== 'string')
      return endpointPage(
        request,
        reply,
        user,
        owned,
        endpoint,
        sent === 'test' ? { notice: pages.text(request).wh.testSent } : {},
      );
    const made = await pages.reveals.take(token, user.id, owned.id);
    const [madeFor, secret] = made?.kind === 'signing-secret' ? made.value.split(' ') : [];
    if (madeFor !== endpoint.id || !secret)
      return endpointPage(request, reply, user, owned, endpoint, { notice: pages.text(request).shownOnce });
    return endpointPage(request, reply, user, owned, endpoint, { newSecret: secret });
  });

  app.post(
    '/console/apps/:appId/webhooks/:endpointId',
    { schema: { hide: true, body: WebhookForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint, t) => {
        const form = request.body;
        const read = readForm(form, t);
        if ('fieldErrors' in read)
          return {
            error: t.fixBelow,
            status: 400,
            extra: { fieldErrors: read.fieldErrors, draft: { url: form.url ?? '', types: form.types ?? [] } },
          };
        await endpoints.update(owned.id, endpoint.id, read.url, read.types);
        return { notice: t.saved };
      }),
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/rotate-secret',
    { schema: { hide: true, body: OverlapForm } },
    async (request, reply) => {
      const target = await reached(request, reply);
      if (!target) return reply;
      const { user, owned, endpoint } = target;
      const overlap = request.body.overlap ?? '';
      if (!isOverlap(overlap))
        return endpointPage(request, reply, user, owned, endpoint, { error: pages.text(request).invalid }, 400);
      const secret = await endpoints.rotateSecret(owned.id, endpoint.id, OVERLAPS[overlap], clock());
      const token = await pages.reveals.keep(user.id, owned.id, 'signing-secret', `${endpoint.id} ${secret}`);
      return reply.redirect(`${base(owned.id)}/${endpoint.id}?shown=${token}`, 303);
    },
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/disable',
    { schema: { hide: true, body: ConfirmForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint, t) => {
        if (!confirmed(request)) return { error: t.confirmFirst, status: 400 };
        await endpoints.setEnabled(owned.id, endpoint.id, false, clock());
        return { notice: t.saved };
      }),
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/enable',
    { schema: { hide: true, body: TokenOnlyForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint, t) => {
        await endpoints.setEnabled(owned.id, endpoint.id, true, clock());
        return { notice: t.saved };
      }),
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/delete',
    { schema: { hide: true, body: ConfirmForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint, t) => {
        if (!confirmed(request)) return { error: t.confirmFirst, status: 400 };
        await endpoints.delete(owned.id, endpoint.id);
        return { redirect: base(owned.id) };
      }),
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/replay',
    { schema: { hide: true, body: ReplayForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (_owned, endpoint, t) => {
        const form = request.body;
        const from = utcField(form.from);
        const to = utcField(form.to);
        if (from === null || to === null || from > to) return { error: t.wh.replayRule, status: 400 };
        // The end's whole minute (or second) is in the range.
        const queued = await endpoints.replay(
          endpoint,
          from,
          to + (String(form.to).length > 16 ? 999 : 59_999),
          clock(),
        );
        return { notice: `${queued.toLocaleString('en')}${t.wh.replayed}` };
      }),
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/test',
    { schema: { hide: true, body: TestEventForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint, t) => {
        const type = request.body.type ?? '';
        if (!isChangeType(type)) return { error: t.invalid, status: 400 };
        await endpoints.sendTest(endpoint, await testEventDelivery(deps.database, deps.links, type, clock()), clock());
        // To the endpoint's page: a reload there does not send another.
        return { redirect: `${base(owned.id)}/${endpoint.id}?sent=test` };
      }),
  );

  app.get(
    '/console/apps/:appId/webhooks/:endpointId/deliveries/:deliveryId',
    { schema: { hide: true } },
    async (request, reply) => {
      const target = await reached(request, reply);
      if (!target) return reply;
      const { user, owned, endpoint } = target;
      const found = await endpoints.delivery(endpoint.id, (request.params as { deliveryId: string }).deliveryId);
      if (!found) return pages.notFound(request, reply);
      const t = pages.text(request);
      const { delivery, attempts, change } = found;
      const queued = (request.query as { queued?: unknown }).queued === '1';
      return pages.render(request, reply, 'webhook-delivery', {
        pageTitle: `${t.wh.delivery}: ${delivery.event_type} ${delivery.event_id}`,
        user,
        section: 'apps',
        app: owned,
        seconds,
        endpoint: describe(endpoint, t),
        delivery: {
          id: delivery.id,
          eventId: delivery.event_id,
          type: delivery.event_type,
          resource: delivery.resource_key,
          state: delivery.state,
          attempts: Number(delivery.attempts),
          nextAttempt: delivery.next_attempt_at === null ? null : Number(delivery.next_attempt_at),
        },
        payload:
          delivery.payload !== null
            ? JSON.stringify(JSON.parse(delivery.payload), null, 2)
            : change
              ? JSON.stringify(changeItem(change, deps.links), null, 2)
              : null,
        attempts: attempts.map((a) => ({
          number: Number(a.number),
          at: Number(a.attempted_at),
          timestamp: Number(a.webhook_timestamp),
          duration: Number(a.duration_ms),
          status: a.status,
          error: a.error,
          response: a.response_body,
        })),
        notice: queued ? t.wh.redelivered : undefined,
        // What the next attempt sends, as headers; the signature is made at each attempt with the secrets in use then.
        requestHead: [
          `POST ${endpoint.url}`,
          'content-type: application/json',
          `webhook-id: ${delivery.event_id}`,
          `webhook-timestamp: ${attempts[0] ? Number(attempts[0].webhook_timestamp) : '…'}`,
          'webhook-signature: v1,…',
        ].join('\n'),
      });
    },
  );

  app.post(
    '/console/apps/:appId/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
    { schema: { hide: true, body: TokenOnlyForm } },
    async (request, reply) =>
      endpointChange(request, reply, async (owned, endpoint) => {
        const deliveryId = (request.params as { deliveryId: string }).deliveryId;
        if (!(await endpoints.redeliver(endpoint, deliveryId, clock())))
          return { error: pages.text(request).notFound, status: 404 };
        return { redirect: `${base(owned.id)}/${endpoint.id}/deliveries/${deliveryId}?queued=1` };
      }),
  );
};
