import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/database.js';
import { ApiError } from '../shared/api-error.js';

/** What the webhooks' gauges show (the webhooks area reads it from the database: modules/webhooks/webhook-stats.ts). */
/** What the metrics show of one search index (live-index.ts, IndexStats). */
type IndexFigures = { items: number; bytes: number; failingReads: number; mended: number };

export interface WebhookStats {
  due: number;
  retrying: number;
  /** Seconds the oldest due delivery has waited (0: none). */
  oldestDueSeconds: number;
  endpoints: { active: number; failing: number; disabled: number };
  /** Seconds since the oldest change still being completed was written (0: none). */
  feedLagSeconds: number;
}

/** What the metrics read when they are scraped, from the parts that know it. */
export interface MetricSources {
  /** Each search index of this instance: its name, the items in it, the bytes of its bitmaps, and how it keeps up. */
  searchIndexes(): Array<IndexFigures & { index: string }>;
  /** The database's pools of connections or read workers. */
  pools(): PoolStats[];
  /** Webhooks: each attempt as it is made, and the backlog, endpoints and feed at a scrape. */
  webhooks: {
    onAttempt(listener: (outcome: string, durationMs: number) => void): void;
    stats(): Promise<WebhookStats>;
  };
}

/** Seconds: a receiver on the same network (a few ms) to one that hits the 10 s deadline. */
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Seconds: from a cached detail to a search that hits its time limit (2 s). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Prometheus metrics at /metrics (prom-client), when the settings turn them on: requests by route and status and
 * their latency, rate-limit refusals by scope, the database pools and read workers, the search indexes, and the
 * process (CPU, memory, event-loop lag, garbage collection). With a token set, /metrics answers only
 * `Authorization: Bearer <token>` (401 otherwise), so it can be left reachable by a scraper without being public.
 * The route label is the route's pattern (`/api/v1/posts/:postId`), never the URL, so ids add no series.
 */
export const metricsPlugin = fp(
  async (app, opts: { token: string | null; version: string; commit: string; sources: MetricSources }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const registers = [registry];
    new Gauge({
      name: 'svc_build_info',
      help: 'The running release and the git commit of its code',
      labelNames: ['version', 'commit'],
      registers,
    }).set({ version: opts.version, commit: opts.commit }, 1);
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: "Time from the request's arrival to its response, by method, route pattern and status class",
      labelNames: ['method', 'route', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const refusals = new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429), by the limit that refused them',
      labelNames: ['scope'],
      registers,
    });
    const pool = (name: string, help: string, pick: (p: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers,
        collect() {
          for (const p of opts.sources.pools()) this.set({ pool: p.name }, pick(p));
        },
      });
    pool('db_pool_size', 'Connections (PostgreSQL) or read workers (SQLite) open', (p) => p.size);
    pool('db_pool_busy', 'Connections or read workers in use', (p) => p.busy);
    pool('db_pool_waiting', 'Reads waiting for a connection or a read worker', (p) => p.waiting);
    const index = (name: string, help: string, pick: (i: IndexFigures) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['index'],
        registers,
        collect() {
          for (const i of opts.sources.searchIndexes()) this.set({ index: i.index }, pick(i));
        },
      });
    index('search_index_items', 'Items in the search index of this instance', (i) => i.items);
    index('search_index_bytes', 'Bytes the search index holds: its bitmaps, columns and token names', (i) => i.bytes);
    index(
      'search_index_failing_reads',
      'Reads of changed items that failed in a row and are tried again (0: the index has caught up)',
      (i) => i.failingReads,
    );
    index(
      'search_index_items_mended',
      'Items the check against the tables found held otherwise than the tables say, and read again, since the start',
      (i) => i.mended,
    );

    const attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Delivery attempts made by this instance, by outcome: delivered (2xx), refused (another status), no_answer',
      labelNames: ['outcome'],
      registers,
    });
    const attemptSeconds = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: "Time from an attempt's request to its answer (or its failure), by outcome",
      labelNames: ['outcome'],
      buckets: ATTEMPT_BUCKETS,
      registers,
    });
    opts.sources.webhooks.onAttempt((outcome, ms) => {
      attempts.inc({ outcome });
      attemptSeconds.observe({ outcome }, ms / 1000);
    });
    // One read of the database for the gauges below, whichever of them is collected first in a scrape.
    let stats: Promise<WebhookStats> | null = null;
    const current = () => {
      stats ??= opts.sources.webhooks.stats().finally(() =>
        setTimeout(() => {
          stats = null;
        }, 100).unref(),
      );
      return stats;
    };
    new Gauge({
      name: 'webhook_backlog',
      help: 'Deliveries not yet delivered or given up, on every instance: due now, or waiting for a retry',
      labelNames: ['state'],
      registers,
      async collect() {
        const s = await current();
        this.set({ state: 'due' }, s.due);
        this.set({ state: 'retrying' }, s.retrying);
      },
    });
    new Gauge({
      name: 'webhook_backlog_oldest_due_seconds',
      help: 'How long the oldest due delivery has waited',
      registers,
      async collect() {
        this.set((await current()).oldestDueSeconds);
      },
    });
    new Gauge({
      name: 'webhook_endpoints',
      help: 'Webhook endpoints by state: active, failing (every attempt failing since a time), disabled',
      labelNames: ['state'],
      registers,
      async collect() {
        const { endpoints } = await current();
        for (const state of ['active', 'failing', 'disabled'] as const) this.set({ state }, endpoints[state]);
      },
    });
    new Gauge({
      name: 'change_feed_completion_lag_seconds',
      help: 'How long the oldest change still being completed has waited since its write (0: none)',
      registers,
      async collect() {
        this.set((await current()).feedLagSeconds);
      },
    });

    // onResponse runs after the response is sent: counting costs the client nothing.
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      requests.inc({ method: request.method, route, status });
      duration.observe(
        { method: request.method, route, status_class: `${Math.floor(status / 100)}xx` },
        reply.elapsedTime / 1000,
      );
      if (status === 429) refusals.inc({ scope: String(reply.getHeader('x-svc-ratelimit-scope') ?? 'global') });
      done();
    });

    const expected = opts.token === null ? null : Buffer.from(`Bearer ${opts.token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (expected !== null) {
        const given = Buffer.from(request.headers.authorization ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
          throw new ApiError(
            'C0003',
            'The metrics answer only Authorization: Bearer with the METRICS_TOKEN of the settings',
            'authorization',
          );
        }
      }
      return reply
        .type(registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(await registry.metrics());
    });
  },
  { name: 'metrics' },
);
