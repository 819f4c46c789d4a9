/**
 * Revocations reach every instance at once (docs/security.md, "Revocation on every instance"). The caches that
 * spare the database a read per request (checked app keys, grants known to stand) would otherwise go on answering
 * for a key, an app or a grant ended on another instance until their entries run out (API_KEY_CACHE_SECONDS, and
 * 2 s for grants). So whatever ends a credential says so here after its commit, and every instance drops what it
 * cached of it:
 *
 * - with `REDIS_URL`: Redis pub/sub (the rate limits' Redis);
 * - on PostgreSQL without Redis: LISTEN/NOTIFY on the database itself;
 * - on SQLite (one instance): this process only.
 *
 * A message is a hint, never an authority: an instance only forgets, and the next request reads the database. A
 * message from another deployment that shares the Redis or the database costs a read, nothing more. While the channel
 * is down the caches' own lifetimes bound how long an ended credential is still taken, and `/readyz` says so.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Notices } from '../db/postgres-notices.js';

/** What ended: one app key, every key of an app (a rotation, a deletion, new web origins), or an OAuth grant. */
export type Revocation = { key: number } | { app: number } | { grant: string };

export interface Revocations {
  /** Drops what this instance cached of `revoked` now, and tells every other instance (without waiting for them). */
  publish(revoked: Revocation): void;
  /** Calls `forget` for every revocation, this instance's and the others'. */
  subscribe(forget: (revoked: Revocation) => void): void;
  /** Null while the others are told at once; otherwise what happens instead, for /readyz. */
  problem(): Promise<string | null>;
  close(): Promise<void>;
}

const FALLBACK =
  'revocations reach the other instances only as their caches expire (app keys: API_KEY_CACHE_SECONDS; grants: 2 s)';

/** The message's JSON, checked: anything else on the channel is ignored. */
function parse(message: string): { from: string; revoked: Revocation } | null {
  try {
    const value = JSON.parse(message) as { from?: unknown; key?: unknown; app?: unknown; grant?: unknown };
    if (typeof value.from !== 'string') return null;
    if (Number.isSafeInteger(value.key)) return { from: value.from, revoked: { key: value.key as number } };
    if (Number.isSafeInteger(value.app)) return { from: value.from, revoked: { app: value.app as number } };
    if (typeof value.grant === 'string' && value.grant.length <= 100)
      return { from: value.from, revoked: { grant: value.grant } };
    return null;
  } catch {
    return null;
  }
}

/** The part every channel shares: local delivery at once, remote sending and receiving, the own echo skipped. */
class Channel implements Revocations {
  private readonly listeners: Array<(revoked: Revocation) => void> = [];
  /** This process, so that it skips its own messages when they come back. */
  private readonly self = randomUUID();

  constructor(
    private readonly transport: {
      send(message: string): Promise<void>;
      problem(): Promise<string | null>;
      close(): Promise<void>;
    } | null,
    private readonly log?: FastifyBaseLogger,
  ) {}

  publish(revoked: Revocation): void {
    this.deliver(revoked);
    if (!this.transport) return;
    this.transport
      .send(JSON.stringify({ from: this.self, ...revoked }))
      .catch((err: unknown) =>
        this.log?.error({ err, revoked }, `telling the other instances of a revocation failed: ${FALLBACK}`),
      );
  }

  subscribe(forget: (revoked: Revocation) => void): void {
    this.listeners.push(forget);
  }

  /** A message from the channel. */
  received(message: string): void {
    const parsed = parse(message);
    if (parsed && parsed.from !== this.self) this.deliver(parsed.revoked);
  }

  private deliver(revoked: Revocation): void {
    for (const forget of this.listeners) forget(revoked);
  }

  problem(): Promise<string | null> {
    return this.transport?.problem() ?? Promise.resolve(null);
  }

  async close(): Promise<void> {
    await this.transport?.close();
  }
}

const since = (at: number) => new Date(at).toISOString();

const REDIS_CHANNEL = 'svc:revocations';
const POSTGRES_CHANNEL = 'svc_revocations';

/** Redis pub/sub: one connection subscribed (it can do nothing else), one to publish. */
async function redisTransport(url: string, channelName: string, onMessage: (message: string) => void) {
  const options = { connectTimeout: 1_000, retryStrategy: () => 1_000, maxRetriesPerRequest: 0 };
  const publisher = new Redis(url, { ...options, enableOfflineQueue: false, commandTimeout: 500 });
  const subscriber = new Redis(url, options);
  let downSince: number | null = null;
  for (const connection of [publisher, subscriber]) connection.on('error', () => undefined);
  subscriber.on('close', () => {
    downSince ??= Date.now();
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === channelName) onMessage(message);
  });
  subscriber.on('ready', () => {
    downSince = null;
  });
  // Subscribed before the instance serves (ioredis subscribes again after every reconnection), or given up after a
  // wait: the instance then serves, reported degraded, and the channel joins when Redis answers.
  await Promise.race([
    subscriber.subscribe(channelName).catch(() => {
      downSince ??= Date.now();
    }),
    new Promise((resolve) => setTimeout(resolve, 2_500).unref()),
  ]);
  if (subscriber.status !== 'ready') downSince ??= Date.now();
  return {
    send: async (message: string) => {
      await publisher.publish(channelName, message);
    },
    problem: async () =>
      downSince === null && subscriber.status === 'ready'
        ? null
        : `Redis unreachable since ${since(downSince ?? Date.now())}: ${FALLBACK}`,
    close: async () => {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}

/** PostgreSQL LISTEN/NOTIFY on the service's database. */
async function postgresTransport(notices: Notices, channelName: string, onMessage: (message: string) => void) {
  await notices.listen(channelName, onMessage);
  return {
    send: (message: string) => notices.send(channelName, message),
    problem: async () => {
      const down = await notices.down();
      return down === null ? null : `the database's notification channel is down since ${since(down)}: ${FALLBACK}`;
    },
    close: async () => undefined,
  };
}

/** Revocations within this process alone: one instance on SQLite, and the operator's tools that check no key. */
export function localRevocations(): Revocations {
  return new Channel(null);
}

/** The channel for this deployment: Redis when REDIS_URL is set, else PostgreSQL's notices, else this process alone. */
export async function openRevocations(
  redisUrl: string | null,
  notices: Notices | null,
  log: FastifyBaseLogger,
): Promise<Revocations> {
  let channel: Channel | null = null;
  const onMessage = (message: string) => channel?.received(message);
  const transport = redisUrl
    ? await redisTransport(redisUrl, REDIS_CHANNEL, onMessage)
    : notices
      ? await postgresTransport(notices, POSTGRES_CHANNEL, onMessage)
      : null;
  channel = new Channel(transport, log);
  return channel;
}

/**
 * Tells the running instances of a revocation made by a process that serves nothing (the operator's CLI), on the
 * channel they listen to. False when there is none (SQLite without Redis) or it could not be reached: the instances
 * then stop taking the credential as their caches expire.
 */
export async function announceRevocation(
  redisUrl: string | null,
  notices: Notices | null,
  revoked: Revocation,
): Promise<boolean> {
  const message = JSON.stringify({ from: `cli-${randomUUID()}`, ...revoked });
  try {
    if (redisUrl) {
      const redis = new Redis(redisUrl, {
        lazyConnect: true,
        connectTimeout: 1_000,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        await redis.publish(REDIS_CHANNEL, message);
      } finally {
        redis.disconnect();
      }
      return true;
    }
    if (notices) {
      await notices.send(POSTGRES_CHANNEL, message);
      return true;
    }
  } catch {
    return false;
  }
  return false;
}
