/**
 * Every setting the service reads from its environment, declared once: its kind (which gives the parsed value's type
 * and the message a bad value stops the start with), its default, and its meaning. config.ts shapes the values into
 * what the service uses; docs/configuration.md and .env.example are written from this table (`npm run docs:generate`),
 * and a test fails when they are not current.
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PASSWORD_COST, MIN_PASSWORD_COST } from './shared/passwords.js';

type Env = Record<string, string | undefined>;

/** A parsed value, or what is wrong with the text it was given (the setting's name is put before it). */
type Parsed<T> = { value: T } | { problem: string };

/** How a setting's text becomes its value; `shown` says which values it takes, for the docs. */
export interface Kind<T> {
  shown: string;
  parse(raw: string, cwd: string): Parsed<T>;
}

export interface Setting<T> {
  kind: Kind<T>;
  /** The value when the setting is not given; a function when it follows from other settings. */
  default: NoInfer<T> | ((values: Readonly<Record<string, unknown>>) => NoInfer<T>);
  /** The default as the docs write it, where it is not the value itself. */
  defaultShown?: string;
  /** The value `npm run demo` gives it, where that differs. */
  demo?: string;
  group: string;
  doc: string;
}

const got = (raw: string) => `got "${raw}"`;

export const int = (min: number, max: number): Kind<number> => ({
  shown: `integer, ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`,
  parse: (raw) => {
    const value = Number(raw);
    return /^-?\d+$/.test(raw) && value >= min && value <= max
      ? { value }
      : { problem: `must be an integer from ${min} to ${max}, ${got(raw)}` };
  },
});

const bool: Kind<boolean> = {
  shown: '`true` or `false` (also `1`/`0`, `yes`/`no`)',
  parse: (raw) =>
    /^(1|true|yes)$/i.test(raw)
      ? { value: true }
      : /^(0|false|no)$/i.test(raw)
        ? { value: false }
        : { problem: `must be true or false, ${got(raw)}` },
};

const oneOf = <const T extends string>(values: readonly T[]): Kind<T> => ({
  shown: values.map((v) => `\`${v}\``).join(', '),
  parse: (raw) =>
    (values as readonly string[]).includes(raw)
      ? { value: raw as T }
      : {
          problem: `must be ${values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`}, ${got(raw)}`,
        },
});

/**
 * Which proxies are trusted for `X-Forwarded-For`: none (`false`), the nearest `n` hops (`true` is one), or the proxies
 * at these addresses (`10.0.0.5,10.1.0.0/16`). The client's address is the one before the trusted hops, never an
 * entry further left that the client may have written itself.
 */
const proxyTrust: Kind<false | number | string[]> = {
  shown: '`false`, `true` (one hop), a number of hops, or a comma list of proxy addresses and CIDR ranges',
  parse: (raw) => {
    if (/^(0|false|no)$/i.test(raw)) return { value: false };
    if (/^(true|yes)$/i.test(raw)) return { value: 1 };
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      return hops >= 1 && hops <= 10 ? { value: hops } : { problem: `must be 1 to 10 hops, ${got(raw)}` };
    }
    const entries = raw.split(',').map((entry) => entry.trim());
    const address = (entry: string) => {
      const [ip, bits, extra] = entry.split('/');
      const version = net.isIP(ip ?? '');
      if (!version || extra !== undefined) return false;
      return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
    };
    return entries.length > 0 && entries.every(address)
      ? { value: entries }
      : { problem: `must be true, false, a number of hops or a comma list of addresses and CIDR ranges, ${got(raw)}` };
  },
};

/** A setting that may be left without a value (its default is null). */
const optional = <T>(kind: Kind<T>): Kind<T | null> => kind;

const text: Kind<string> = { shown: 'text', parse: (raw) => ({ value: raw }) };

/** Random text of at least `min` characters; never printed back. */
const secret = (min: number): Kind<string> => ({
  shown: `random text, at least ${min} characters`,
  parse: (raw) =>
    raw.length >= min ? { value: raw } : { problem: `must be at least ${min} characters of random text` },
});

/** Hides the password of a connection URL so that it can be printed. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}

/** A connection URL of one of `schemes`; printed back without its password. */
const connectionUrl = (schemes: readonly string[]): Kind<string> => ({
  shown: schemes.map((s) => `\`${s}://…\``).join(' or '),
  parse: (raw) =>
    new RegExp(`^(${schemes.join('|')})://${schemes[0] === 'smtp' ? '[^/]' : ''}`).test(raw)
      ? { value: raw }
      : {
          problem: `must be ${schemes.length === 2 ? `an ${schemes[0]}:// or ${schemes[1]}://` : `a ${schemes[0]}://`} URL, got "${redactUrl(raw)}"`,
        },
});

const httpUrl: Kind<string> = {
  shown: 'an absolute `http` or `https` URL',
  parse: (raw) => {
    try {
      const url = new URL(raw);
      if (url.protocol === 'http:' || url.protocol === 'https:') return { value: raw.replace(/\/+$/, '') };
    } catch {
      /* the message below */
    }
    return { problem: `must be an absolute http(s) URL, ${got(raw)}` };
  },
};

const directory: Kind<string> = {
  shown: 'a directory (relative to where the service starts)',
  parse: (raw, cwd) => ({ value: path.resolve(cwd, raw) }),
};

/** `postgres://…`, or a SQLite file path (relative to where the service starts; `file://` accepted). */
const databaseUrl: Kind<{ kind: 'sqlite' | 'postgres'; url: string }> = {
  shown: '`postgres://…`, or a SQLite file path',
  parse: (raw, cwd) => {
    if (/^postgres(ql)?:\/\//.test(raw)) return { value: { kind: 'postgres', url: raw } };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !raw.startsWith('file://'))
      return { problem: `must be a postgres:// URL or a SQLite file path, got "${redactUrl(raw)}"` };
    return { value: { kind: 'sqlite', url: path.resolve(cwd, raw.replace(/^file:\/\//, '')) } };
  },
};

const timeZone: Kind<string> = {
  shown: 'an IANA time zone',
  parse: (raw) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: raw });
      return { value: raw };
    } catch {
      return { problem: `must be an IANA time zone such as Asia/Seoul, ${got(raw)}` };
    }
  },
};

/** A comma list; each item checked by `item` (null: fine). */
const list = (shown: string, item: (value: string) => string | null = () => null, lower = false): Kind<string[]> => ({
  shown,
  parse: (raw) => {
    const values = raw
      .split(',')
      .map((v) => (lower ? v.trim().toLowerCase() : v.trim()))
      .filter(Boolean);
    for (const value of values) {
      const problem = item(value);
      if (problem) return { problem };
    }
    return { value: values };
  },
});

const origins = list('a comma list of origins (`https://app.example.com`)', (o) =>
  /^https?:\/\/[^/]+$/.test(o) ? null : `"${o}" is not an origin like https://app.example.com`,
);
const hosts = list('a comma list of host names', undefined, true);

/** Operation identifiers of the spec's rate-limit table. */
export const OPERATION_IDS = [
  'post.create',
  'post.update',
  'post.delete',
  'job.create',
  'job.update',
  'job.delete',
  'job.publish',
  'job.disable',
  'event.create',
  'event.update',
  'event.delete',
  'event.sub.create',
  'event.sub.update',
  'event.sub.delete',
  'company.update',
  'profile.update',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

/** The spec's defaults: [per minute, per hour, per day]. */
const OPERATION_DEFAULTS: Record<OperationId, [number, number, number]> = {
  'post.create': [2, 10, 50],
  'post.update': [5, 40, 300],
  'post.delete': [2, 10, 30],
  'job.create': [2, 10, 50],
  'job.update': [5, 40, 300],
  'job.delete': [2, 10, 30],
  'job.publish': [5, 30, 150],
  'job.disable': [5, 30, 150],
  'event.create': [2, 10, 50],
  'event.update': [5, 40, 300],
  'event.delete': [2, 10, 30],
  'event.sub.create': [10, 100, 500],
  'event.sub.update': [15, 150, 800],
  'event.sub.delete': [10, 100, 400],
  'company.update': [5, 40, 300],
  'profile.update': [5, 40, 300],
};

const WINDOWS = [
  ['PER_MINUTE', 'a minute'],
  ['PER_HOUR', 'an hour'],
  ['PER_DAY', 'a day'],
] as const;
const LIMIT = 1_000_000_000;

/** The setting of one operation's limit in one window (`RATE_LIMIT_POST_CREATE_PER_MINUTE`). */
export const operationLimitName = (op: OperationId, window: (typeof WINDOWS)[number][0]) =>
  `RATE_LIMIT_${op.toUpperCase().replace(/\./g, '_')}_${window}`;

const operationLimits = Object.fromEntries(
  OPERATION_IDS.flatMap((op) =>
    WINDOWS.map(([window, per], i) => [
      operationLimitName(op, window),
      {
        kind: int(1, LIMIT),
        default: OPERATION_DEFAULTS[op][i]!,
        group: 'Rate limits',
        doc: `Calls of \`${op}\` one user of one app may make ${per}`,
      } satisfies Setting<number>,
    ]),
  ),
);

const MiB = 1024 * 1024;

const setting = <T>(s: Setting<T>) => s;

export const SETTINGS = {
  PORT: setting({ kind: int(0, 65535), default: 8080, group: 'Serving', doc: 'Listening port' }),
  HOST: setting({ kind: text, default: '127.0.0.1', group: 'Serving', doc: 'Listening address' }),
  PUBLIC_BASE_URL: setting({
    kind: httpUrl,
    default: (v) => `http://${String(v.HOST).includes(':') ? `[${String(v.HOST)}]` : String(v.HOST)}:${String(v.PORT)}`,
    defaultShown: '`http://HOST:PORT`',
    group: 'Serving',
    doc: "Base of this service's own URLs (media, the OAuth issuer, the console's links)",
  }),
  WEB_BASE_URL: setting({
    kind: httpUrl,
    default: (v) => String(v.PUBLIC_BASE_URL),
    defaultShown: '`PUBLIC_BASE_URL`',
    group: 'Serving',
    doc: 'Base of `webUrl` fields (`/posts/{id}`, `/jobs/{id}`, `/events/{id}`)',
  }),
  INSTANCE_NAME: setting({
    kind: text,
    default: (v) => `${os.hostname()}:${String(v.PORT)}`,
    defaultShown: '`hostname:PORT`',
    group: 'Serving',
    doc: 'Names this instance among those sharing a database; on start it releases the `Idempotency-Key` claims and webhook endpoint leases its earlier run left unfinished (docs/writes.md, docs/webhooks.md); two running instances must never share one',
  }),
  SHUTDOWN_DRAIN_MS: setting({
    kind: int(0, 120_000),
    default: 0,
    group: 'Serving',
    doc: 'On SIGTERM, how long to keep serving before the listener closes: `/readyz` answers 503 and no connection is kept alive, so a proxy stops using this instance first (5000 behind nginx: docs/deployment.md)',
  }),
  TRUST_PROXY: setting({
    kind: proxyTrust,
    default: false,
    group: 'Serving',
    doc: "Which reverse proxies `X-Forwarded-*` is taken from: `true` the nearest one (one hop: the shipped nginx files), a number of hops, or the proxies' addresses; the client's address is the one the nearest untrusted hop gives, never what the client wrote itself (docs/deployment.md)",
  }),
  CORS_ORIGINS: setting({
    kind: origins,
    default: [],
    defaultShown: 'none',
    group: 'Serving',
    doc: 'Allowed browser origins',
  }),
  SERVICE_TIME_ZONE: setting({
    kind: timeZone,
    default: 'Asia/Seoul',
    group: 'Serving',
    doc: 'Zone of dates (`YYYY-MM-DD`) in requests and of zone-less times in request bodies; list and detail times are UTC (docs/api.md, "Times")',
  }),
  HTTP_HEADERS_TIMEOUT_MS: setting({
    kind: int(100, 600_000),
    default: 10_000,
    group: 'Connections',
    doc: "A request's headers must arrive within this; else 408 and the connection is closed (docs/security.md)",
  }),
  HTTP_REQUEST_TIMEOUT_MS: setting({
    kind: int(100, 3_600_000),
    default: 120_000,
    group: 'Connections',
    doc: 'The whole request, body included, must arrive within this; else 408 and the connection is closed',
  }),
  HTTP_IDLE_TIMEOUT_MS: setting({
    kind: int(100, 3_600_000),
    default: 30_000,
    group: 'Connections',
    doc: 'A socket with no traffic either way for this long is closed',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: setting({
    kind: int(100, 3_600_000),
    default: 5_000,
    group: 'Connections',
    doc: "An idle keep-alive connection is closed after this (raise it above a load balancer's idle timeout)",
  }),
  HTTP_MAX_CONNECTIONS: setting({
    kind: int(1, 1_000_000),
    default: 1_000,
    group: 'Connections',
    doc: 'Connections past this many are refused',
  }),

  DATA_DIR: setting({
    kind: directory,
    default: (v) => path.resolve(String(v.cwd), './data'),
    defaultShown: '`./data`',
    group: 'Data',
    doc: "Where the SQLite file, media, the search indexes' copies and the demo credentials live",
  }),
  DATABASE_URL: setting({
    kind: databaseUrl,
    default: (v) => ({ kind: 'sqlite' as const, url: path.join(String(v.DATA_DIR), 'service.sqlite') }),
    defaultShown: 'the SQLite file `DATA_DIR/service.sqlite`',
    group: 'Data',
    doc: '`postgres://…` for PostgreSQL, or a SQLite file path',
  }),
  SQLITE_READ_WORKERS: setting({
    kind: int(0, 16),
    default: 2,
    group: 'Data',
    doc: "SQLite only: worker threads with read-only connections that run the long reads (event searches, the post index's build from the tables), so one does not hold up other requests (`0`: run them on the main connection); started at the first such read, ended after a minute without one",
  }),
  DATABASE_CONNECT_TIMEOUT_MS: setting({
    kind: int(50, 600_000),
    default: 5_000,
    group: 'Data',
    doc: 'PostgreSQL only: how long a request waits for a connection (a new one or a free one of the pool); past it the request is answered 503 `C9998` with `Retry-After`. Stays below `HTTP_IDLE_TIMEOUT_MS`',
  }),
  DATABASE_QUERY_TIMEOUT_MS: setting({
    kind: int(50, 3_600_000),
    default: 15_000,
    group: 'Data',
    doc: 'PostgreSQL only: how long a statement may go unanswered; past it the request is answered 503 `C9998` and the connection is closed, never reused. Migrations have no statement limit',
  }),
  DATABASE_POOL_SIZE: setting({
    kind: int(1, 500),
    default: 10,
    group: 'Data',
    doc: 'PostgreSQL only: connections for everything but searches (without `REDIS_URL`, one more per instance listens for revocations)',
  }),
  DATABASE_SEARCH_POOL_SIZE: setting({
    kind: int(1, 500),
    default: 4,
    group: 'Data',
    doc: 'PostgreSQL only: the separate pool searches use, so a slow search never takes a connection a detail read needs',
  }),
  DATABASE_BACKGROUND_POOL_SIZE: setting({
    kind: int(1, 100),
    default: 2,
    group: 'Data',
    doc: "PostgreSQL only: connections for webhook deliveries and the completion of changes, apart from requests'",
  }),
  SEARCH_TIMEOUT_MS: setting({
    kind: int(50, 600_000),
    default: 2_000,
    group: 'Data',
    doc: 'A long read run for a request is stopped past it and answered with 500 `C9999` (PostgreSQL `statement_timeout`; on SQLite the worker is replaced); every search is answered from the search index, whose builds are not held to it',
  }),
  REDIS_URL: setting({
    kind: optional(connectionUrl(['redis', 'rediss'])),
    default: null,
    defaultShown: 'none',
    group: 'Data',
    doc: 'Rate-limit counters in Redis, shared by every instance (else in the database, reserved ahead: docs/rate-limits.md)',
  }),
  CHANGES_RETENTION_DAYS: setting({
    kind: int(1, 3_650),
    default: 30,
    group: 'Data',
    doc: 'How long the change feed keeps changes (and webhook deliveries their records); an older cursor is 410 `C0013` (docs/changes.md)',
  }),
  REQUEST_LOG_PER_APP: setting({
    kind: int(10, 100_000),
    default: 1_000,
    group: 'Data',
    doc: 'Requests each app\'s request log keeps (the console\'s "Request log": time, operation, status, error code, time taken, request id)',
  }),

  LOG_LEVEL: setting({
    kind: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    group: 'Logs and metrics',
    doc: 'The least level logged; at `info` and below, one line a request',
  }),
  LOG_FORMAT: setting({
    kind: oneOf(['json', 'pretty']),
    default: 'json',
    demo: 'pretty',
    group: 'Logs and metrics',
    doc: '`json`: one object a line, for collectors (`"level":"info"`, `"time"` in ISO 8601 UTC); `pretty`: readable lines. Either way one line a request: method, path (credential query values redacted), status, app, error code, milliseconds',
  }),
  METRICS: setting({
    kind: oneOf(['on', 'off']),
    default: 'off',
    demo: 'on',
    group: 'Logs and metrics',
    doc: '`on`: Prometheus metrics at `/metrics` (docs/api.md, "Service endpoints")',
  }),
  METRICS_TOKEN: setting({
    kind: optional(secret(16)),
    default: null,
    defaultShown: 'none',
    group: 'Logs and metrics',
    doc: 'When set, `/metrics` answers only `Authorization: Bearer <token>`. Required with `METRICS=on` unless `HOST` is a loopback address (`127.0.0.1`, `::1`, `localhost`): the service refuses to start with open metrics anyone else could read',
  }),

  CONSOLE_SIGN_UP: setting({
    kind: oneOf(['open', 'closed']),
    default: 'closed',
    demo: 'open',
    group: 'Console and mail',
    doc: '`open`: anyone may create an account at `/console/sign-up`; `closed`: accounts come from the operator CLI (`users create`)',
  }),
  APPS_PER_BUILDER: setting({
    kind: int(1, 10_000),
    default: 20,
    group: 'Console and mail',
    doc: "Apps one console user may own at once (the operator's CLI is not held to it)",
  }),
  SMTP_URL: setting({
    kind: optional(connectionUrl(['smtp', 'smtps'])),
    default: null,
    defaultShown: 'none',
    group: 'Console and mail',
    doc: "Where the console's mail goes (password-reset and address-confirmation links): `smtp://user:password@host:587` or `smtps://…`; without it, each message is written to `DATA_DIR/outbox/` (docs/console.md)",
  }),
  MAIL_FROM: setting({
    kind: text,
    default: (v) => `no-reply@${new URL(String(v.PUBLIC_BASE_URL)).hostname.replace(/^\[|\]$/g, '')}`,
    defaultShown: '`no-reply@` and the public host',
    group: 'Console and mail',
    doc: "The sender of the console's mail",
  }),

  WEBHOOKS_ALLOW_LOOPBACK: setting({
    kind: bool,
    default: false,
    demo: 'true',
    group: 'Webhooks',
    doc: 'Webhook endpoints may also be `http`/`https` to `localhost`, `127.0.0.1`, `[::1]` (development); private networks never (docs/webhooks.md)',
  }),
  WEBHOOK_TIMEOUT_MS: setting({
    kind: int(100, 60_000),
    default: 10_000,
    group: 'Webhooks',
    doc: 'How long a webhook attempt waits for the whole answer',
  }),
  WEBHOOK_CONCURRENCY: setting({
    kind: int(1, 256),
    default: 16,
    group: 'Webhooks',
    doc: 'Requests in flight to one endpoint',
  }),
  WEBHOOK_BUILDER_CONCURRENCY: setting({
    kind: int(1, 1_024),
    default: 32,
    group: 'Webhooks',
    doc: "Per instance, the endpoints of one builder (every app of one console user) worked at once, and their requests in flight at once: one builder's slow endpoints cannot hold up another's",
  }),
  WEBHOOK_ENDPOINTS_PER_APP: setting({
    kind: int(1, 100),
    default: 10,
    group: 'Webhooks',
    doc: 'Webhook endpoints an app may have',
  }),

  API_KEY_CACHE_SECONDS: setting({
    kind: int(0, 5),
    default: 5,
    group: 'Keys, tokens and sign-in',
    doc: 'How long a checked app key is remembered. A key revoked, rotated with no overlap, or of a deleted app is refused at once by every instance (the revocation is published: docs/security.md); this bounds it only while that channel is down',
  }),
  SIGNING_KEY_SECRET: setting({
    kind: optional(secret(32)),
    default: null,
    defaultShown: 'a random secret kept in `DATA_DIR/signing-key.secret`',
    group: 'Keys, tokens and sign-in',
    doc: 'Encrypts the token-signing keys at rest; instances sharing a database must share it',
  }),
  AUTH_CODE_TTL_SECONDS: setting({
    kind: int(10, 3_600),
    default: 300,
    group: 'Keys, tokens and sign-in',
    doc: 'Lifetime of an OAuth authorization code',
  }),
  ACCESS_TOKEN_TTL_SECONDS: setting({
    kind: int(30, 86_400),
    default: 900,
    group: 'Keys, tokens and sign-in',
    doc: "Lifetime of an access token (the real service's 15 minutes)",
  }),
  REFRESH_TOKEN_TTL_SECONDS: setting({
    kind: int(60, 365 * 86_400),
    default: 30 * 86_400,
    group: 'Keys, tokens and sign-in',
    doc: 'Lifetime of a refresh token',
  }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: setting({
    kind: int(1, 1_000),
    default: 5,
    group: 'Keys, tokens and sign-in',
    doc: 'Failed sign-ins of one account within the window before it is held back',
  }),
  LOGIN_MAX_FAILURES_PER_ADDRESS: setting({
    kind: int(1, 100_000),
    default: 20,
    group: 'Keys, tokens and sign-in',
    doc: 'Failed sign-ins from one address within the window before it is held back',
  }),
  LOGIN_FAILURE_WINDOW_SECONDS: setting({
    kind: int(10, 86_400),
    default: 900,
    group: 'Keys, tokens and sign-in',
    doc: 'The window the sign-in limits count in',
  }),
  PASSWORD_HASH_MEMORY_KIB: setting({
    kind: int(MIN_PASSWORD_COST.memoryKiB, 4 * MiB),
    default: DEFAULT_PASSWORD_COST.memoryKiB,
    group: 'Keys, tokens and sign-in',
    doc: "argon2id's memory for new password hashes; the least is OWASP's for argon2id, which the tests use. A hash keeps its own parameters, so a change applies to passwords set after it",
  }),
  PASSWORD_HASH_PASSES: setting({
    kind: int(MIN_PASSWORD_COST.passes, 20),
    default: DEFAULT_PASSWORD_COST.passes,
    group: 'Keys, tokens and sign-in',
    doc: "argon2id's passes for new password hashes",
  }),
  CLIENT_METADATA_ALLOWED_HOSTS: setting({
    kind: hosts,
    default: [],
    defaultShown: 'none',
    group: 'Keys, tokens and sign-in',
    doc: 'OAuth clients known by a metadata document (an https `client_id`): hosts whose documents may be fetched at private addresses, and over http (docs/oauth.md)',
  }),

  RATE_LIMIT_GLOBAL_PER_MINUTE: setting({
    kind: int(1, LIMIT),
    default: 60,
    group: 'Rate limits',
    doc: 'Calls one app may make a minute',
  }),
  RATE_LIMIT_GLOBAL_PER_DAY: setting({
    kind: int(1, LIMIT),
    default: 5_000,
    group: 'Rate limits',
    doc: 'Calls one app may make a day',
  }),
  PROFILE_READS_PER_DAY: setting({
    kind: int(1, LIMIT),
    default: 1_000,
    group: 'Rate limits',
    doc: 'Distinct profiles one app may read through profile details a UTC day (a profile read again that day is not counted again)',
  }),
  RATE_LIMIT_REDIS_PREFIX: setting({
    kind: text,
    default: 'svc:rl:',
    group: 'Rate limits',
    doc: 'The Redis key prefix (several deployments may share one Redis)',
  }),
  ...(operationLimits as Record<string, Setting<number>>),

  MEDIA_STORE: setting({
    kind: oneOf(['disk', 'database']),
    default: 'disk',
    group: 'Media',
    doc: '`disk` (files under `DATA_DIR/media`) or `database` (shared by several instances)',
  }),
  MEDIA_MAX_IMAGE_BYTES: setting({
    kind: int(1024, 100 * MiB),
    default: 10 * MiB,
    group: 'Media',
    doc: 'Upload limit per image',
  }),
  MEDIA_MAX_REQUEST_BYTES: setting({
    kind: int(1024, 1024 * MiB),
    default: 40 * MiB,
    group: 'Media',
    doc: 'Upload limit per request',
  }),
  MEDIA_MAX_IMAGE_PIXELS: setting({
    kind: int(1, 1_000_000_000),
    default: 40_000_000,
    group: 'Media',
    doc: 'Images whose header claims more pixels are refused (400 `P0011`) before they are decoded',
  }),
  MEDIA_MAX_DECODED_BYTES: setting({
    kind: int(1024, 4 * 1024 * MiB),
    default: 160 * MiB,
    group: 'Media',
    doc: 'Images whose pixels would take more bytes once decoded (width × height × channels × bytes per sample) are refused (400 `P0011`) from their header',
  }),
  MEDIA_DECODE_CONCURRENCY: setting({
    kind: int(1, 256),
    default: () => Math.max(1, Math.floor(os.availableParallelism() / 2)),
    defaultShown: 'half the cores, at least 1',
    group: 'Media',
    doc: "Images decoded at once (one libvips thread each); each app's uploads are decoded one at a time",
  }),
  OG_FETCH_ALLOWED_HOSTS: setting({
    kind: hosts,
    default: [],
    defaultShown: 'none',
    group: 'Media',
    doc: 'Open Graph fetching: hosts allowed at private addresses',
  }),
  OG_FETCH_TIMEOUT_MS: setting({
    kind: int(100, 60_000),
    default: 3_000,
    group: 'Media',
    doc: 'Open Graph fetching: the deadline',
  }),
  OG_FETCH_MAX_BYTES: setting({
    kind: int(1024, 10 * MiB),
    default: 512 * 1024,
    group: 'Media',
    doc: 'Open Graph fetching: the most of a page read',
  }),
};

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;

/** Every setting's value: given and checked, or its default. */
export type SettingValues = { [K in SettingName]: Settings[K] extends Setting<infer T> ? T : never };

/**
 * Reads every setting from `env` (an empty or blank value is not given), in the table's order, so a default that
 * follows from other settings sees their values. Returns the values, and a line for each bad one naming it.
 */
export function readSettings(env: Env, cwd: string): { values: SettingValues; problems: string[] } {
  const values: Record<string, unknown> = { cwd };
  const problems: string[] = [];
  for (const [name, s] of Object.entries(SETTINGS) as Array<[string, Setting<unknown>]>) {
    const raw = env[name]?.trim();
    const parsed = raw === undefined || raw === '' ? null : s.kind.parse(raw, cwd);
    if (parsed && 'problem' in parsed) problems.push(`${name}: ${parsed.problem}`);
    values[name] =
      parsed && 'value' in parsed
        ? parsed.value
        : typeof s.default === 'function'
          ? (s.default as (v: Record<string, unknown>) => unknown)(values)
          : s.default;
  }
  return { values: values as SettingValues, problems };
}

/** What `npm run demo` sets where the environment does not: readable logs, open sign-up, metrics, loopback webhooks. */
export function demoSettings(): Record<string, string> {
  return Object.fromEntries(
    (Object.entries(SETTINGS) as Array<[string, Setting<unknown>]>)
      .filter(([, s]) => s.demo !== undefined)
      .map(([name, s]) => [name, s.demo!]),
  );
}
