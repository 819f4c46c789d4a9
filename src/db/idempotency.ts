import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import { sendLater } from './sent-later.js';
import { ApiError } from '../shared/api-error.js';
import type { UploadedFile } from '../shared/multipart-body.js';

const LIFETIME_MS = 24 * 3_600_000;
const WAIT_FOR_FIRST_MS = 15_000;
/** How long a claim outlives the last sign of life of the process that holds it. */
const LEASE_MS = 10_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface Created {
  status: number;
  body: unknown;
  location?: string;
}

/** A fingerprint of a create request: its route, JSON and files, so a retry can be told from a new request. */
export function fingerprint(route: string, json: unknown, files: UploadedFile[] = []): string {
  const hash = createHash('sha256')
    .update(route)
    .update('\0')
    .update(JSON.stringify(json ?? null));
  for (const file of files)
    hash.update('\0').update(file.filename).update(createHash('sha256').update(file.bytes).digest());
  return hash.digest('hex');
}

/**
 * The claim a create runs under, for `recordCreated` inside its transaction: how the create's result is answered,
 * and the answer once the transaction has recorded it.
 */
interface ActiveClaim {
  scope: string;
  key: string;
  owner: string;
  answer(result: unknown): Created;
  recorded?: Created;
}
const activeClaim = new AsyncLocalStorage<ActiveClaim>();

/**
 * Called inside the transaction that creates a resource, with that transaction: ties the resource to the
 * Idempotency-Key claim of the request (if it has one) in the same commit, so a crash right after the commit
 * still lets the retry answer with this resource instead of creating another. Given the create's `result` (what
 * it will return, known before its commit), the claim keeps the answer itself in the same statement: nothing is
 * left to store after the commit.
 */
export async function recordCreated(db: Kysely<DB>, resourceId: string | number, result?: unknown): Promise<void> {
  const claim = activeClaim.getStore();
  if (!claim) return;
  const answer = result === undefined ? undefined : claim.answer(result);
  await sendLater(
    db,
    db
      .updateTable('idempotency_keys')
      .set({
        resource_id: String(resourceId),
        ...(answer && { ...storedAnswer(answer), owner: null, lease_expires_at: null }),
      })
      .where('scope', '=', claim.scope)
      .where('idempotency_key', '=', claim.key)
      .where('owner', '=', claim.owner),
  );
  claim.recorded = answer;
}

const storedAnswer = (answer: Created) => ({
  response_status: answer.status,
  response_body: JSON.stringify(answer.body),
  response_location: answer.location ?? null,
});

/**
 * How a route creates (the first time), how it answers again for a resource a crashed request created, and how a
 * result of either is answered.
 */
export interface CreateOperation<Result> {
  create(): Promise<Result>;
  replay(resourceId: string): Promise<Result>;
  answer(result: Result): Created;
}

/**
 * `Idempotency-Key` for creates: the first request with a key runs and its response is kept for 24 hours;
 * a retry with the same key and the same request gets that response again without creating anything; the
 * same key with a different request is 409 C0009. Concurrent retries wait for the first to finish. Keys
 * belong to one client and user. A request that fails keeps nothing, so it may be retried.
 *
 * A claim names the process that holds it and a lease that process renews while it works. When the process
 * dies (a crash, a kill), the claim is abandoned: it is given up when that instance starts again, and any
 * retry takes it over once its lease has run out. If the create had committed (its transaction recorded the
 * resource on the claim), the retry answers with that resource; otherwise it does the work. Never a 409 for a
 * day, never a second resource.
 */
export class Idempotency {
  private lastSweep = 0;
  /** This process: `instance/boot`, so a restart of the same instance knows its predecessor's claims. */
  private readonly owner: string;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number,
    private readonly instance: string,
  ) {
    this.owner = `${instance}/${randomUUID()}`;
  }

  /**
   * Gives up the claims an earlier run of this instance left unfinished (and any from before claims had
   * owners): their lease ends now, so the next retry takes them over at once.
   */
  async releaseAbandoned(): Promise<number> {
    const prefix = `${this.instance}/`;
    const released = await this.db
      .updateTable('idempotency_keys')
      .set({ lease_expires_at: 0 })
      .where('response_status', 'is', null)
      .where((eb) =>
        eb.or([
          eb('owner', 'is', null),
          eb.and([eb(sql<string>`substr(owner, 1, ${prefix.length})`, '=', prefix), eb('owner', '!=', this.owner)]),
        ]),
      )
      .executeTakeFirst();
    return Number(released.numUpdatedRows);
  }

  async respond<Result>(
    request: FastifyRequest,
    reply: FastifyReply,
    requestHash: string,
    operation: CreateOperation<Result>,
  ): Promise<FastifyReply> {
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return this.send(reply, operation.answer(await operation.create()), false);
    if (!KEY.test(key))
      throw new ApiError(
        'C0002',
        'Header "Idempotency-Key" must be 1 to 255 visible ASCII characters',
        'Idempotency-Key',
      );
    const scope = request.token
      ? `${request.token.clientId}:${request.token.userId}`
      : `app:${request.apiApp?.appId ?? 'anonymous'}`;
    await this.sweep();

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const now = this.clock();
      const inserted = await this.db
        .insertInto('idempotency_keys')
        .values({
          scope,
          idempotency_key: key,
          request_hash: requestHash,
          response_status: null,
          response_body: null,
          response_location: null,
          created_at: now,
          expires_at: now + LIFETIME_MS,
          owner: this.owner,
          lease_expires_at: now + LEASE_MS,
          resource_id: null,
        })
        .onConflict((oc) => oc.columns(['scope', 'idempotency_key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return this.runFirst(reply, scope, key, operation);

      const existing = await this.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      if (!existing) continue; // the first request failed and released the key: try again
      if (existing.expires_at <= now) {
        await this.db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', scope)
          .where('idempotency_key', '=', key)
          .where('expires_at', '<=', now)
          .execute();
        continue;
      }
      if (existing.request_hash !== requestHash) {
        throw new ApiError(
          'C0009',
          'This Idempotency-Key was already used with a different request',
          'Idempotency-Key',
        );
      }
      if (existing.response_status !== null) {
        return this.send(
          reply,
          {
            status: existing.response_status,
            body: JSON.parse(existing.response_body ?? 'null'),
            location: existing.response_location ?? undefined,
          },
          true,
        );
      }
      if ((existing.lease_expires_at ?? 0) <= now && (await this.takeOver(scope, key, now))) {
        // The process that claimed the key died. If its create had committed, answer with what it created.
        if (existing.resource_id !== null)
          return this.finish(reply, scope, key, operation.answer(await operation.replay(existing.resource_id)), true);
        return this.runFirst(reply, scope, key, operation);
      }
      if (Date.now() > deadline) {
        reply.header('Retry-After', String(Math.max(1, Math.ceil(((existing.lease_expires_at ?? now) - now) / 1000))));
        throw new ApiError(
          'C0009',
          'A request with this Idempotency-Key is still in progress; retry after the time in Retry-After',
          'Idempotency-Key',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Takes an abandoned claim (its lease ran out) for this process; false when another retry took it first. */
  private async takeOver(scope: string, key: string, now: number): Promise<boolean> {
    const taken = await this.db
      .updateTable('idempotency_keys')
      .set({ owner: this.owner, lease_expires_at: now + LEASE_MS })
      .where('scope', '=', scope)
      .where('idempotency_key', '=', key)
      .where('response_status', 'is', null)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0;
  }

  private async runFirst<Result>(
    reply: FastifyReply,
    scope: string,
    key: string,
    operation: CreateOperation<Result>,
  ): Promise<FastifyReply> {
    // Renewed while the work runs, so only a claim whose process has stopped ever runs out.
    const renewal = setInterval(() => {
      this.mine(scope, key)
        .set({ lease_expires_at: this.clock() + LEASE_MS })
        .execute()
        .catch(() => undefined);
    }, LEASE_MS / 3);
    renewal.unref();
    const claim: ActiveClaim = {
      scope,
      key,
      owner: this.owner,
      answer: (result) => operation.answer(result as Result),
    };
    let result: Result;
    try {
      result = await activeClaim.run(claim, () => operation.create());
    } catch (err) {
      // Nothing created: the key is free again. Created but not answered (a read after the commit failed): the
      // claim is given up, and the next retry answers with what was created.
      await this.db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .where('owner', '=', this.owner)
        .where('resource_id', 'is', null)
        .execute();
      await this.mine(scope, key).set({ lease_expires_at: 0 }).execute();
      throw err;
    } finally {
      clearInterval(renewal);
    }
    // The create's transaction kept the answer with the resource: it is sent as it was stored.
    if (claim.recorded) return this.send(reply, claim.recorded, false);
    return this.finish(reply, scope, key, operation.answer(result), false);
  }

  /** Stores the answer on this process's claim and sends it. */
  private async finish(
    reply: FastifyReply,
    scope: string,
    key: string,
    created: Created,
    replayed: boolean,
  ): Promise<FastifyReply> {
    await this.mine(scope, key)
      .set({ ...storedAnswer(created), owner: null, lease_expires_at: null })
      .execute();
    return this.send(reply, created, replayed);
  }

  private mine(scope: string, key: string) {
    return this.db
      .updateTable('idempotency_keys')
      .where('scope', '=', scope)
      .where('idempotency_key', '=', key)
      .where('owner', '=', this.owner);
  }

  private send(reply: FastifyReply, created: Created, replayed: boolean): FastifyReply {
    if (created.location) reply.header('Location', created.location);
    if (replayed) reply.header('Idempotency-Replayed', 'true');
    return reply.status(created.status).send(created.body);
  }

  /** Drops expired keys, at most every ten minutes. */
  private async sweep(): Promise<void> {
    const now = this.clock();
    if (now - this.lastSweep < 600_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
  }
}
