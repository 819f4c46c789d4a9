import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ApiError } from './api-error.js';
import type { UploadedFile } from './multipart-body.js';

const LIFETIME_MS = 24 * 3_600_000;
const WAIT_FOR_FIRST_MS = 15_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface Created { status: number; body: unknown; location?: string }

/** A fingerprint of a create request: its route, JSON and files, so a retry can be told from a new request. */
export function fingerprint(route: string, json: unknown, files: UploadedFile[] = []): string {
  const hash = createHash('sha256').update(route).update('\0').update(JSON.stringify(json ?? null));
  for (const file of files) hash.update('\0').update(file.filename).update(createHash('sha256').update(file.bytes).digest());
  return hash.digest('hex');
}

/**
 * `Idempotency-Key` for creates: the first request with a key runs and its response is kept for 24 hours;
 * a retry with the same key and the same request gets that response again without creating anything; the
 * same key with a different request is 409 C0009. Concurrent retries wait for the first to finish. Keys
 * belong to one client and user. A request that fails keeps nothing, so it may be retried.
 */
export class Idempotency {
  private lastSweep = 0;

  constructor(private readonly db: Kysely<DB>, private readonly clock: () => number) {}

  async respond(request: FastifyRequest, reply: FastifyReply, requestHash: string, create: () => Promise<Created>): Promise<FastifyReply> {
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return this.send(reply, await create(), false);
    if (!KEY.test(key)) throw new ApiError('C0002', 'Header "Idempotency-Key" must be 1 to 255 visible ASCII characters', 'Idempotency-Key');
    const scope = request.token ? `${request.token.clientId}:${request.token.userId}` : `app:${request.apiApp?.appId ?? 'anonymous'}`;
    await this.sweep();

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const now = this.clock();
      const inserted = await this.db.insertInto('idempotency_keys').values({
        scope, idempotency_key: key, request_hash: requestHash, response_status: null, response_body: null, response_location: null,
        created_at: now, expires_at: now + LIFETIME_MS,
      }).onConflict((oc) => oc.columns(['scope', 'idempotency_key']).doNothing()).executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return this.runFirst(reply, scope, key, create);

      const existing = await this.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('idempotency_key', '=', key).executeTakeFirst();
      if (!existing) continue; // the first request failed and released the key: try again
      if (existing.expires_at <= now) {
        await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('idempotency_key', '=', key).where('expires_at', '<=', now).execute();
        continue;
      }
      if (existing.request_hash !== requestHash) {
        throw new ApiError('C0009', 'This Idempotency-Key was already used with a different request', 'Idempotency-Key');
      }
      if (existing.response_status !== null) {
        return this.send(reply, {
          status: existing.response_status, body: JSON.parse(existing.response_body ?? 'null'), location: existing.response_location ?? undefined,
        }, true);
      }
      if (Date.now() > deadline) throw new ApiError('C0009', 'A request with this Idempotency-Key is still in progress', 'Idempotency-Key');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private async runFirst(reply: FastifyReply, scope: string, key: string, create: () => Promise<Created>): Promise<FastifyReply> {
    let created: Created;
    try {
      created = await create();
    } catch (err) {
      await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('idempotency_key', '=', key).execute();
      throw err;
    }
    await this.db.updateTable('idempotency_keys').set({
      response_status: created.status, response_body: JSON.stringify(created.body), response_location: created.location ?? null,
    }).where('scope', '=', scope).where('idempotency_key', '=', key).execute();
    return this.send(reply, created, false);
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

