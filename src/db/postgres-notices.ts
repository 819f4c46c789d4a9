/**
 * PostgreSQL's LISTEN/NOTIFY between the processes on one database: a notice sent with `pg_notify` reaches every
 * connection listening on its channel when the sender's transaction commits (at once, outside one). Listening holds
 * a connection of its own, outside the pools (a pooled connection would be handed to a query and miss notices);
 * when it drops, it is opened again after a second, then after up to 30, and `down()` says since when it is away.
 */
import pg from 'pg';

export interface Notices {
  /** Sends `payload` to every listener of `channel` (this process's included). */
  send(channel: string, payload: string): Promise<void>;
  /** Calls `handler` with each payload sent on `channel` from now on; resolves once listening (or after its first failure). */
  listen(channel: string, handler: (payload: string) => void): Promise<void>;
  /** Null while listening works (a round trip on the listening connection); otherwise since when it has not. */
  down(): Promise<number | null>;
  close(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 1_000;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** `name`: the listening connection's application_name, so that an operator finds it in pg_stat_activity. */
export function postgresNotices(
  url: string,
  name: string,
  send: (channel: string, payload: string) => Promise<void>,
): Notices {
  const channels = new Map<string, (payload: string) => void>();
  let client: pg.Client | null = null;
  let downSince: number | null = null;
  let failures = 0;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;

  const lost = (broken: pg.Client) => {
    if (client !== broken) return;
    client = null;
    downSince ??= Date.now();
    broken.removeAllListeners('notification');
    void broken.end().catch(() => undefined);
    if (closed || retry) return;
    retry = setTimeout(
      () => {
        retry = null;
        void connect();
      },
      RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)],
    );
    retry.unref();
  };

  const connect = async (): Promise<void> => {
    if (closed || client) return;
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      application_name: name,
    });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (notice) => {
      const handler = channels.get(notice.channel);
      if (handler && notice.payload !== undefined) handler(notice.payload);
    });
    try {
      await next.connect();
      for (const channel of channels.keys()) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (client === next) {
        downSince = null;
        failures = 0;
      }
    } catch {
      lost(next);
    }
  };

  return {
    send,
    async listen(channel, handler) {
      channels.set(channel, handler);
      if (client) {
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`).catch(() => lost(client!));
      } else {
        await connect();
      }
    },
    async down() {
      const current = client;
      if (current && downSince === null) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), CHECK_TIMEOUT_MS);
        });
        try {
          await Promise.race([current.query('SELECT 1'), timeout]);
        } catch {
          lost(current);
        } finally {
          clearTimeout(timer);
        }
      }
      return channels.size === 0 ? null : downSince;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
