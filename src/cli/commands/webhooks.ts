import { WebhookEndpoints, WebhookError, type EndpointRow } from '../../modules/webhooks/webhook-endpoints.js';
import { required, UsageError, type CliContext, type Command } from '../command.js';

const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The endpoints' store; no secret is made or read here, so no key-encryption key is needed. */
async function endpoints(ctx: CliContext): Promise<WebhookEndpoints> {
  return new WebhookEndpoints((await ctx.database()).db, Buffer.alloc(32), ctx.config.webhooks.endpointsPerApp);
}

async function endpointOf(ctx: CliContext, values: Record<string, unknown>): Promise<EndpointRow> {
  const id = required(values, 'endpoint');
  if (!/^ep_[0-9A-Za-z]{1,40}$/.test(id))
    throw new UsageError(`--endpoint must be an endpoint id (ep_…; webhooks list shows them); got "${id}"`);
  const row = await (await ctx.database()).db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new UsageError(`No endpoint ${id}`);
  return row;
}

export const webhooksListCommand: Command = {
  name: 'webhooks list',
  summary: 'List webhook endpoints with their app, state and deliveries waiting',
  usage: 'webhooks list [--app ID]',
  options: { app: { type: 'string' } },
  async run(values, ctx) {
    const { db } = await ctx.database();
    let query = db
      .selectFrom('webhook_endpoints as e')
      .select(['e.id', 'e.app_id', 'e.url', 'e.disabled_at', 'e.disabled_reason', 'e.failing_since'])
      .select((eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.state', '=', 'pending')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .as('pending'),
      )
      .orderBy('e.app_id')
      .orderBy('e.created_at');
    if (values.app !== undefined) {
      if (!/^\d{1,15}$/.test(String(values.app)))
        throw new UsageError(`--app must be an app id; got "${String(values.app)}"`);
      query = query.where('e.app_id', '=', Number(values.app));
    }
    const rows = await query.execute();
    if (rows.length === 0) ctx.io.out('No endpoints.');
    for (const e of rows) {
      const state =
        e.disabled_at !== null
          ? `disabled ${time(Number(e.disabled_at))} (${e.disabled_reason ?? ''})`
          : e.failing_since !== null
            ? `failing since ${time(Number(e.failing_since))}`
            : 'active';
      ctx.io.out(`${e.id}  app ${e.app_id}  ${e.url}  ${state}  ${Number(e.pending ?? 0)} waiting`);
    }
  },
};

export const webhooksDisableCommand: Command = {
  name: 'webhooks disable',
  summary: 'Disable an endpoint: nothing more is sent to it, and its deliveries waiting are given up',
  usage: 'webhooks disable --endpoint ep_…',
  options: { endpoint: { type: 'string' } },
  async run(values, ctx) {
    const endpoint = await endpointOf(ctx, values);
    if (endpoint.disabled_at !== null) throw new UsageError(`${endpoint.id} is disabled already`);
    await (await endpoints(ctx)).setEnabled(
      Number(endpoint.app_id),
      endpoint.id,
      false,
      Date.now(),
      'disabled by the operator',
    );
    ctx.io.out(`${endpoint.id} disabled; its deliveries waiting were given up.`);
  },
};

export const webhooksEnableCommand: Command = {
  name: 'webhooks enable',
  summary: 'Enable a disabled endpoint: it receives the changes committed from now on',
  usage: 'webhooks enable --endpoint ep_…',
  options: { endpoint: { type: 'string' } },
  async run(values, ctx) {
    const endpoint = await endpointOf(ctx, values);
    if (endpoint.disabled_at === null) throw new UsageError(`${endpoint.id} is not disabled`);
    await (await endpoints(ctx)).setEnabled(Number(endpoint.app_id), endpoint.id, true, Date.now());
    ctx.io.out(`${endpoint.id} enabled: it receives the changes committed from now on.`);
  },
};

export const webhooksRedeliverCommand: Command = {
  name: 'webhooks redeliver',
  summary: 'Send one delivery again now, with a fresh retry schedule and the same webhook-id',
  usage: 'webhooks redeliver --delivery dlv_…',
  options: { delivery: { type: 'string' } },
  async run(values, ctx) {
    const id = required(values, 'delivery');
    if (!/^dlv_[0-9A-Za-z]{1,40}$/.test(id))
      throw new UsageError(`--delivery must be a delivery id (dlv_…); got "${id}"`);
    const { db } = await ctx.database();
    const delivery = await db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'event_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!delivery) throw new UsageError(`No delivery ${id}`);
    const endpoint = await endpointOf(ctx, { endpoint: delivery.endpoint_id });
    try {
      await (await endpoints(ctx)).redeliver(endpoint, id, Date.now());
    } catch (err) {
      throw err instanceof WebhookError
        ? new UsageError(`${endpoint.id} is disabled: webhooks enable --endpoint ${endpoint.id} first`)
        : err;
    }
    ctx.io.out(`${id} (${delivery.event_id}) queued to ${endpoint.url}.`);
  },
};
