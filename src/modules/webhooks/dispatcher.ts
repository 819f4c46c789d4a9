/**
 * Sending webhooks (docs/webhooks.md). Each endpoint follows the change feed with its own cursor and is worked by
 * one instance at a time, under a lease in its row:
 *
 * 1. **Fan-out**: the changes after the cursor that the endpoint wants become deliveries, then the cursor moves
 *    past them (a crash in between leaves deliveries the next holder's insert finds there: one row per endpoint and
 *    change, so nothing is lost and nothing made twice).
 * 2. **Rounds**: up to 64 due deliveries at a time, at most one per resource (a delivery waits until the earlier
 *    ones of its resource are delivered or given up: ordered per resource), sent concurrently, signed per Standard
 *    Webhooks, each with its endpoint and change read as it goes out (deleted or disabled meanwhile: not sent);
 *    the results, every attempt, and the next attempt of each failure written in one transaction that first proves
 *    the lease is still held. Builders take turns (claimWork, builder-shares.ts).
 * 3. **Release**: with nothing due, the lease is given up and the earliest retry written to the endpoint's
 *    `due_at`, where any instance's poll finds it.
 *
 * Endpoints are worked concurrently and independently: a slow or failing endpoint holds only its own work. A
 * SIGKILL leaves deliveries pending and the lease running out; the next holder sends them again with the same
 * `webhook-id` (at least once). Instances find work by polling every 250 ms (one small query) and, on the instance
 * that wrote, at once when its write completes the change. On PostgreSQL every query here runs on the background
 * pool (`Database.background`): deliveries neither wait behind a burst of reads for a connection nor hold one up.
 *
 * This file is the loop and its decisions; the SQL is delivery-repository.ts, the retry schedule retry-policy.ts.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ChangeFeed, ChangeRow, FeedPage } from '../../change-feed/change-feed.js';
import { changeItem } from '../../change-feed/change-item.js';
import { backgroundWork } from '../../db/prepared-reads.js';
import type { DB } from '../../db/schema.js';
import { Rerun } from '../../shared/rerun.js';
import type { Links } from '../../shared/links.js';
import { unseal } from '../../shared/sealed.js';
import { BuilderShares } from './builder-shares.js';
import { DeliveryRepository, type Due, type Endpoint } from './delivery-repository.js';
import { afterAttempt, endpointAfterRound, succeeded } from './retry-policy.js';
import { WebhookSender, type SendResult } from './send.js';
import { signedHeaders } from './signature.js';
import { acceptsAddress } from './target-address.js';
import { inTraceOf } from '../../telemetry/trace-spans.js';

const LEASE_MS = 30_000;
const ROUND = 64;
const FAN_OUT = 500;
const POLL_MS = 250;
/** How long an endpoint with nothing to send keeps its lease, waiting for the next change, before giving it up. */
const LINGER_MS = 2_000;
/** Endpoints one instance works at once; more wait for the next poll or another instance. */
const MAX_ENDPOINTS = 200;

type Outcome = SendResult & { timestamp: number; final: boolean };
/** How an attempt ended: answered 2xx, answered otherwise, or no answer (refused, reset, timed out, blocked). */
export type AttemptOutcome = 'delivered' | 'refused' | 'no_answer';

export interface DispatcherOptions {
  /** This process, in leases: `instance/boot`. */
  owner: string;
  kek: Buffer;
  timeoutMs: number;
  allowLoopback: boolean;
  /** Requests in flight per endpoint. */
  concurrency: number;
  /** Endpoints worked at once, and requests in flight at once, for one builder's endpoints (builder-shares.ts). */
  builderConcurrency: number;
}

/** The endpoint is no longer this instance's to work: its lease was taken over, or it was deleted. */
class LeaseLost extends Error {}

/** `work` over `items`, at most `limit` at a time, results in order. */
async function inPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Whether `rows` are the changes right after `cursor`, every position in turn (none missing between them). */
function followsWithoutGap(cursor: number, rows: ChangeRow[]): boolean {
  return rows.length > 0 && rows.every((row, i) => row.position === cursor + 1 + i);
}

export class WebhookDispatcher {
  private readonly working = new Map<string, Promise<void>>();
  /** Each builder's part of this instance's work: their endpoints worked, their deliveries on the wire. */
  private readonly shares: BuilderShares;
  /** The last look found endpoints it had no room for: endpoints worked here give their place up after each round. */
  private crowded = false;
  /** Told of every attempt made (the metrics). */
  private readonly attemptListeners: Array<(outcome: AttemptOutcome, durationMs: number) => void> = [];
  /** Looking for work and claiming it, one look at a time (a wake during a look asks for another). */
  private readonly claims = new Rerun(() =>
    backgroundWork.run(true, async () => {
      // Its statements, and those of the endpoints' work it starts, are not a request's (db/prepared-reads.ts).
      this.started += await this.claimWork();
    }),
  );
  /** Endpoints' runs started so far (settle() tells from it whether a look found work). */
  private started = 0;
  private stopped = false;
  /** Endpoints lingering with their lease (nothing to send), each with what wakes it (false: give the lease up). */
  private readonly lingering = new Map<string, (more: boolean) => void>();
  /**
   * For each endpoint this instance works, the changes this instance has completed since its last fan-out, as
   * stored: taken without reading the feed when they follow its cursor (fanOut).
   */
  private readonly inbox = new Map<string, ChangeRow[]>();
  /** settle() is running: endpoints give their lease up as soon as they have nothing to send. */
  private settling = false;
  /** An incomplete change that ended a fan-out, and since when (awaitCompletion). */
  private stuck: { position: number; since: number } | null = null;
  private readonly sender: WebhookSender;
  private readonly deliveries: DeliveryRepository;

  constructor(
    /** Where the dispatcher reads and writes (the feed too): the background pool on PostgreSQL. */
    private readonly db: Kysely<DB>,
    private readonly feed: ChangeFeed,
    private readonly links: Links,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly options: DispatcherOptions,
  ) {
    this.sender = new WebhookSender(acceptsAddress(options.allowLoopback), options.timeoutMs, options.concurrency);
    this.shares = new BuilderShares(options.builderConcurrency);
    this.deliveries = new DeliveryRepository(db, options.owner);
  }

  /**
   * Frees the leases an earlier run of this instance (the same INSTANCE_NAME) left when it stopped without giving them
   * up (a crash, a SIGKILL): its deliveries go on at once instead of after the lease runs out. Like the
   * Idempotency-Key claims, this relies on each running instance having a name of its own.
   */
  releaseEarlierRuns(instanceName: string): Promise<number> {
    return this.deliveries.releaseLeasesOf(`${instanceName}/`);
  }

  /** Polls for work, and looks at once when this instance completes a change; returns the stop, which waits for rounds in flight. */
  start(): () => Promise<void> {
    const timer = setInterval(() => this.wake(), POLL_MS);
    timer.unref();
    // Changes completed here: the endpoints worked here find them in their inbox (those lingering at once), the
    // others through a claim.
    this.feed.onPublished((completed) => {
      for (const id of completed.length > 0 ? this.working.keys() : []) {
        const held = [...(this.inbox.get(id) ?? []), ...completed];
        // An endpoint far behind reads the feed anyway: its inbox is let go rather than grown.
        if (held.length > FAN_OUT) this.inbox.delete(id);
        else this.inbox.set(id, held);
      }
      for (const wake of this.lingering.values()) wake(true);
      this.wake();
    });
    return async () => {
      clearInterval(timer);
      this.stopped = true;
      for (const wake of this.lingering.values()) wake(false);
      await Promise.allSettled([...this.working.values()]);
      this.sender.close();
    };
  }

  /** Calls `listener` after each attempt with how it ended and how long it took. */
  onAttempt(listener: (outcome: AttemptOutcome, durationMs: number) => void): void {
    this.attemptListeners.push(listener);
  }

  wake(): void {
    this.claims
      .run()
      .catch((err: unknown) => this.log.error({ err }, 'webhooks: looking for work failed; the next poll retries'));
  }

  /** Runs until nothing is due now (tests, with their own clock; the service's poll does the same over time). */
  async settle(): Promise<void> {
    this.settling = true;
    try {
      for (const wake of this.lingering.values()) wake(false);
      for (let round = 0; round < 10_000; round++) {
        await this.claims.running;
        const before = this.started;
        await this.claims.run();
        if (this.started === before && this.working.size === 0) return;
        await Promise.allSettled([...this.working.values()]);
      }
      throw new Error('webhooks: still busy after 10,000 rounds');
    } finally {
      this.settling = false;
    }
  }

  /**
   * With nothing to send, an endpoint keeps its lease a little while: a change that comes meanwhile (found by the
   * poll, or written on this instance) is sent at once, without giving the lease up and claiming it again. Resolves
   * true when there may be work (at once when its inbox holds the next changes), false when the endpoint should give
   * its lease up.
   */
  private linger(id: string, cursor: number): Promise<boolean> {
    if (this.stopped || this.settling) return Promise.resolve(false);
    if (followsWithoutGap(cursor, this.inbox.get(id) ?? [])) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), LINGER_MS);
      const done = (more: boolean) => {
        clearTimeout(timer);
        this.lingering.delete(id);
        resolve(more);
      };
      this.lingering.set(id, done);
    });
  }

  /**
   * Claims the endpoints with work whose lease is free, and works each; returns how many it started. Fair between
   * builders: the endpoints with work are taken in turns, each builder's first, then each one's second, and so on, and
   * none of a builder who has `builderConcurrency` endpoints worked here already, so that one builder's hundreds of
   * endpoints never fill the instance while another's wait.
   */
  private async claimWork(): Promise<number> {
    if (this.stopped) return 0;
    const { builderConcurrency } = this.options;
    const now = this.clock();
    const candidates = await this.deliveries.endpointsWithWork(
      now,
      builderConcurrency,
      MAX_ENDPOINTS + builderConcurrency,
    );
    // An endpoint this instance is working already: if it is lingering, it has work now.
    for (const { id } of candidates) this.lingering.get(id)?.(true);
    const chosen: Array<{ id: string; builder: number }> = [];
    const taking = new Map<number, number>();
    let leftOut = false;
    for (const candidate of candidates) {
      const builderId = Number(candidate.builder);
      const more = taking.get(builderId) ?? 0;
      if (this.working.has(candidate.id) || !this.shares.mayWork(builderId, more)) continue;
      if (this.working.size + chosen.length >= MAX_ENDPOINTS) {
        leftOut = true;
        break;
      }
      taking.set(builderId, more + 1);
      chosen.push({ id: candidate.id, builder: builderId });
    }
    this.crowded = leftOut;
    const claims = await Promise.all(
      chosen.map(async ({ id, builder: builderId }) => {
        const endpoint = await this.deliveries.claim(id, now, now + LEASE_MS);
        return endpoint && { endpoint, builder: builderId };
      }),
    );
    let started = 0;
    for (const claim of claims) {
      if (!claim || this.stopped || this.working.has(claim.endpoint.id)) continue;
      const { endpoint, builder: builderId } = claim;
      const done = this.shares.work(builderId);
      const { id } = endpoint;
      const run = this.work(endpoint, builderId)
        .catch((err: unknown) => {
          if (!(err instanceof LeaseLost))
            this.log.error(
              { err, endpoint: id },
              'webhooks: working an endpoint failed; its lease runs out and it is tried again',
            );
        })
        .finally(() => {
          done();
          this.working.delete(id);
          this.inbox.delete(id);
          // A change that came while this run was giving up the lease is looked for at once, not at the next poll.
          if (!this.stopped) this.wake();
        });
      this.working.set(id, run);
      started++;
    }
    return started;
  }

  /**
   * Fan-out and rounds for as long as the endpoint has work and this instance holds its lease (just claimed:
   * `claimed`). The lease is renewed (and the endpoint read again) before each round is sent and after it, before
   * lingering: a change that wakes the endpoint goes straight to its fan-out.
   */
  private async work(claimed: Endpoint, builder: number): Promise<void> {
    for (let endpoint: Endpoint | undefined = claimed; ; ) {
      if (this.stopped) return this.release(claimed.id);
      if (!endpoint) return; // deleted, or taken over after the lease ran out
      if (endpoint.disabled_at !== null) return this.release(claimed.id);
      const { more, due } = await this.fanOut(endpoint, () => this.deliveries.due(claimed.id, this.clock(), ROUND));
      if (due.length > 0) {
        // The lease lasts the round (each send then reads the endpoint again: sendable), and an endpoint disabled or
        // deleted while this run lingered sends nothing.
        endpoint = await this.renewLease(claimed.id);
        if (!endpoint || endpoint.disabled_at !== null) continue;
        await this.sendRound(endpoint, builder, due);
        // Endpoints wait for room: this one gives its place up and is claimed again in its builder's turn.
        if (this.crowded) return this.release(claimed.id);
      }
      endpoint = await this.renewLease(claimed.id);
      if (due.length > 0 || more || !endpoint || endpoint.disabled_at !== null) continue;
      if (!(await this.linger(claimed.id, Number(endpoint.cursor)))) return this.release(claimed.id);
    }
  }

  /** Extends this instance's lease on the endpoint; the endpoint's row, or undefined when it is gone or taken over. */
  private renewLease(id: string): Promise<Endpoint | undefined> {
    return this.deliveries.renewLease(id, this.clock() + LEASE_MS);
  }

  /**
   * The changes after the endpoint's cursor become its deliveries (those of the types it wants), then the cursor
   * moves past them. Without a transaction, and safe: a delivery is one row per endpoint and position (a second
   * insert does nothing), and the cursor moves only from where it was read and only under this instance's lease.
   * Changes this instance has just completed (its inbox) are taken as they are when they follow the cursor without a
   * gap; otherwise the feed is read.
   */
  private async fanOut(endpoint: Endpoint, then: () => Promise<Due[]>): Promise<{ more: boolean; due: Due[] }> {
    const cursor = Number(endpoint.cursor);
    const types = JSON.parse(endpoint.event_types) as string[];
    let page = this.fromInbox(endpoint.id, cursor) ?? (await this.feed.stretch(cursor, FAN_OUT, this.db));
    if (page.incomplete !== null) {
      await this.awaitCompletion(page.incomplete);
      // Completed here meanwhile (the look above ran while this instance's writer completed it): taken at once.
      if (page.rows.length === 0) page = this.fromInbox(endpoint.id, cursor) ?? page;
    }
    if (page.through <= cursor) return { more: false, due: await then() };
    const now = this.clock();
    const wanted = types.length === 0 ? page.rows : page.rows.filter((row) => types.includes(row.type));
    // Woken without a look at its row (work()), the endpoint may have been deleted meanwhile.
    if (!(await this.deliveries.insertDeliveries(endpoint.id, wanted, now))) throw new LeaseLost();
    // The deliveries are in: the cursor's move and the look-up of what is due run side by side (two connections).
    const [moved, due] = await Promise.all([this.deliveries.moveCursor(endpoint.id, cursor, page.through), then()]);
    if (!moved) throw new LeaseLost();
    endpoint.cursor = page.through;
    return { more: page.more, due };
  }

  /**
   * The changes of the endpoint's inbox that follow `cursor` without a gap, as a page, or null (the inbox keeps those
   * after the cursor). An inbox holds at most FAN_OUT changes (start()): one page takes them all.
   */
  private fromInbox(id: string, cursor: number): FeedPage | null {
    const rows = (this.inbox.get(id) ?? []).filter((row) => row.position > cursor);
    const follows = followsWithoutGap(cursor, rows);
    if (follows || rows.length === 0) this.inbox.delete(id);
    else this.inbox.set(id, rows);
    return follows ? { rows, through: rows.at(-1)!.position, more: false, incomplete: null } : null;
  }

  /**
   * A change not yet completed by its writer ends the fan-out before it. Its writer completes it within
   * milliseconds: here, by the completion this instance is running; on another instance, by the next poll's look.
   * A writer killed before completing leaves it for the feed: after a second, this instance completes it itself.
   */
  private async awaitCompletion(position: number): Promise<void> {
    const running = this.feed.publishing;
    if (running) return running;
    const now = Date.now();
    if (this.stuck?.position !== position) {
      this.stuck = { position, since: now };
    } else if (now - this.stuck.since > 1_000) {
      this.stuck = null;
      await this.feed.publish();
    }
  }

  private secretsOf(
    endpoint: Pick<Endpoint, 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_until'>,
    now: number,
  ): string[] {
    const secrets = [unseal(this.options.kek, endpoint.secret_sealed)];
    if (endpoint.previous_secret_sealed !== null && Number(endpoint.previous_secret_until ?? 0) > now) {
      secrets.push(unseal(this.options.kek, endpoint.previous_secret_sealed));
    }
    return secrets;
  }

  private async sendRound(endpoint: Endpoint, builder: number, due: Due[]): Promise<void> {
    // A round can outlast the lease (64 slow answers, each waiting for its builder's turn): it is kept meanwhile.
    const keeper = setInterval(() => {
      this.renewLease(endpoint.id).catch((err: unknown) =>
        this.log.warn({ err, endpoint: endpoint.id }, 'webhooks: renewing a lease during a round failed'),
      );
    }, LEASE_MS / 3);
    const outcomes = await inPool(due, this.options.concurrency, ({ change, payload, eventId, position }) =>
      this.shares.send(builder, async (): Promise<Outcome | null> => {
        if (!change && payload === null)
          return {
            status: null,
            error: 'the change is no longer kept (older than the retention)',
            responseBody: null,
            durationMs: 0,
            timestamp: 0,
            final: true,
          };
        // The endpoint and the change as they are at the moment of sending, not as the round read them: nothing goes to
        // an endpoint deleted (its app with it) or disabled since, the secret and URL are today's, and a resource
        // deleted since goes out empty.
        const now = await this.deliveries.sendable(endpoint.id, position);
        if (!now) return null;
        const body = change ? JSON.stringify(changeItem({ ...change, data: now.data }, this.links)) : payload!;
        // The receiver compares the timestamp with its own clock: the real time of this attempt.
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = signedHeaders(this.secretsOf(now, this.clock()), eventId, timestamp, body);
        const sent = await inTraceOf(change?.event_id ?? eventId, { 'svc.endpoint_id': endpoint.id }, () =>
          this.sender.send(endpoint.id, now.url, headers, body),
        );
        return { ...sent, timestamp, final: false };
      }),
    ).finally(() => clearInterval(keeper));
    // Deliveries not sent (the endpoint went mid-round) keep their state: recorded are only the attempts made.
    const made = due.flatMap((delivery, i) => (outcomes[i] ? [{ delivery, outcome: outcomes[i] }] : []));
    for (const { outcome } of made) {
      const how: AttemptOutcome = succeeded(outcome.status)
        ? 'delivered'
        : outcome.status === null
          ? 'no_answer'
          : 'refused';
      for (const listener of this.attemptListeners) listener(how, outcome.durationMs);
    }
    if (made.length > 0)
      await this.record(
        endpoint,
        made.map((m) => m.delivery),
        made.map((m) => m.outcome),
      );
  }

  private async record(endpoint: Endpoint, due: Due[], outcomes: Outcome[]): Promise<void> {
    const now = this.clock();
    const after = endpointAfterRound(
      endpoint.failing_since === null ? null : Number(endpoint.failing_since),
      outcomes.map((o) => o.status),
      now,
    );
    const attempts = due.map((delivery, i) => ({ delivery, ...outcomes[i]! }));
    const held = await this.deliveries.recordRound(endpoint.id, now, after, attempts, (disabledMeanwhile) =>
      attempts.map(({ delivery, ...outcome }) => ({
        id: delivery.id,
        ...afterAttempt(delivery, outcome, disabledMeanwhile, now),
        status: outcome.status,
        durationMs: outcome.durationMs,
        error: outcome.error ?? (succeeded(outcome.status) ? null : `answered ${outcome.status}`),
      })),
    );
    if (!held) throw new LeaseLost();
    if (after.disable)
      this.log.warn(
        { endpoint: endpoint.id, app: endpoint.app_id },
        'webhooks: endpoint disabled after 3 days of failed attempts',
      );
  }

  /** Gives the lease up, leaving the earliest sendable retry in `due_at` for whichever instance polls next. */
  private release(id: string): Promise<void> {
    return this.deliveries.release(id);
  }
}
