import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PASSWORD_COST, MIN_PASSWORD_COST, type PasswordCost } from './shared/passwords.js';

/** Operation identifiers of the spec's rate-limit table. */

/** Addresses only this machine can reach. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
export const OPERATION_IDS = [
  'post.create', 'post.update', 'post.delete',
  'job.create', 'job.update', 'job.delete', 'job.publish', 'job.disable',
  'event.create', 'event.update', 'event.delete',
  'event.sub.create', 'event.sub.update', 'event.sub.delete',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

export interface WindowLimits { perMinute: number; perHour: number; perDay: number }

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
};

export interface Config {
  port: number;
  host: string;
  /** Names this instance among those sharing a database (claims it held are released when it restarts). */
  instanceName: string;
  /**
   * On SIGTERM, how long the instance keeps serving before it stops accepting: /readyz answers 503 and every
   * response closes its connection, so a proxy's kept-alive connections are gone before the listener closes.
   */
  shutdownDrainMs: number;
  /** How long the change feed keeps changes (GET /api/v1/changes; an older cursor is answered 410). */
  changesRetentionDays: number;
  /**
   * Webhook deliveries (docs/webhooks.md): loopback targets for development, the answer's deadline, requests in flight
   * per endpoint and per builder (all the endpoints of one builder's apps, on one instance), endpoints an app may have.
   */
  webhooks: { allowLoopback: boolean; timeoutMs: number; concurrency: number; builderConcurrency: number; endpointsPerApp: number };
  /** Apps one console user may own at once (the operator's CLI is not held to it). */
  appsPerBuilder: number;
  /** Requests each app's request log keeps (the console shows the latest of them). */
  requestLogPerApp: number;
  /** Bounds on every connection, so idle or trickling clients cannot hold the server's sockets. */
  http: {
    /** The request's headers must have arrived within this. */
    headersTimeoutMs: number;
    /** The whole request, body included, must have arrived within this. */
    requestTimeoutMs: number;
    /** A socket with no traffic either way for this long is closed. */
    idleTimeoutMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
    /** Connections past this many are refused. */
    maxConnections: number;
  };
  dataDir: string;
  /** `postgres://…` or an absolute SQLite file path. */
  databaseUrl: string;
  databaseKind: 'sqlite' | 'postgres';
  /** SQLite: worker threads that run search counts and rankings off the event loop (0: none). */
  sqliteReadWorkers: number;
  /** PostgreSQL: how long a request waits for a database connection (`DATABASE_CONNECT_TIMEOUT_MS`). */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: how long a statement may go unanswered (`DATABASE_QUERY_TIMEOUT_MS`). */
  databaseQueryTimeoutMs: number;
  /** PostgreSQL: connections for everything but searches; and the separate pool the searches use. */
  databasePoolSize: number;
  searchPoolSize: number;
  /** PostgreSQL: connections for background work (webhook deliveries), apart from requests'. */
  backgroundPoolSize: number;
  /** A search read running longer is stopped (PostgreSQL statement_timeout; SQLite ends the worker). */
  searchTimeoutMs: number;
  redisUrl: string | null;
  publicBaseUrl: string;
  webBaseUrl: string;
  serviceTimeZone: string;
  logLevel: string;
  /** `json` (one object a line, for collectors) or `pretty` (readable; what `npm run demo` uses). */
  logFormat: 'json' | 'pretty';
  /** Whether anyone may create an account in the developer console (CONSOLE_SIGN_UP=open); the demo opens it. */
  consoleSignUpOpen: boolean;
  /**
   * Prometheus metrics at /metrics (METRICS=on; the demo turns them on), answered only with
   * `Authorization: Bearer <METRICS_TOKEN>` when a token is set. Off by default.
   */
  metrics: { enabled: boolean; token: string | null };
  /** Outgoing mail (the console's reset and confirmation links): SMTP, or the outbox under DATA_DIR without SMTP_URL. */
  mail: { smtpUrl: string | null; from: string };
  corsOrigins: string[];
  trustProxy: boolean;
  apiKeyCacheSeconds: number;
  rateLimits: {
    /** Prefix of the Redis keys (several deployments may share one Redis). */
    redisPrefix: string;
    globalPerMinute: number;
    globalPerDay: number;
    operations: Record<OperationId, WindowLimits>;
  };
  media: {
    store: 'disk' | 'database'; maxImageBytes: number; maxRequestBytes: number; maxImagePixels: number;
    /** An image whose decoded pixels would take more bytes (width × height × channels × bytes per sample) is refused. */
    maxDecodedBytes: number;
    /** Images decoded at once in the process (each on one thread); one at a time per app. */
    decodeConcurrency: number;
  };
  ogFetch: { allowedHosts: string[]; timeoutMs: number; maxBytes: number };
  /** Hosts whose OAuth client metadata documents may be fetched at private addresses, over http (CLIENT_METADATA_ALLOWED_HOSTS). */
  clientMetadataAllowedHosts: string[];
  /** Encrypts OAuth signing keys at rest; when unset, a random secret is kept in DATA_DIR/signing-key.secret. */
  signingKeySecret: string | null;
  loginThrottle: { maxFailuresPerAccount: number; maxFailuresPerAddress: number; windowSeconds: number };
  /** argon2id's cost for new password hashes (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES); never below MIN_PASSWORD_COST. */
  passwordCost: PasswordCost;
  lifetimes: {
    authorizationCodeSeconds: number;
    accessTokenSeconds: number;
    refreshTokenSeconds: number;
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads and validates every setting; throws ConfigError naming each bad one. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const httpUrl = (name: string, fallback: string): string => {
    const raw = read(name) ?? fallback;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name}: must be an absolute http(s) URL, got "${raw}"`);
      return fallback;
    }
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(1|true|yes)$/i.test(raw)) return true;
    if (/^(0|false|no)$/i.test(raw)) return false;
    problems.push(`${name}: must be true or false, got "${raw}"`);
    return fallback;
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? './data');

  const rawDatabaseUrl = read('DATABASE_URL');
  let databaseUrl = path.join(dataDir, 'service.sqlite');
  let databaseKind: Config['databaseKind'] = 'sqlite';
  if (rawDatabaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//.test(rawDatabaseUrl)) {
      databaseKind = 'postgres';
      databaseUrl = rawDatabaseUrl;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rawDatabaseUrl) && !rawDatabaseUrl.startsWith('file://')) {
      problems.push(`DATABASE_URL: must be a postgres:// URL or a SQLite file path, got "${redactUrl(rawDatabaseUrl)}"`);
    } else {
      databaseUrl = path.resolve(cwd, rawDatabaseUrl.replace(/^file:\/\//, ''));
    }
  }

  const smtpUrl = read('SMTP_URL') ?? null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl)) problems.push(`SMTP_URL: must be an smtp:// or smtps:// URL, got "${redactUrl(smtpUrl)}"`);
  const mailFrom = read('MAIL_FROM');

  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL: must be a redis:// or rediss:// URL, got "${redactUrl(redisUrl)}"`);
  }

  const publicBaseUrl = httpUrl('PUBLIC_BASE_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  const webBaseUrl = httpUrl('WEB_BASE_URL', publicBaseUrl);

  const serviceTimeZone = read('SERVICE_TIME_ZONE') ?? 'Asia/Seoul';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: serviceTimeZone });
  } catch {
    problems.push(`SERVICE_TIME_ZONE: must be an IANA time zone such as Asia/Seoul, got "${serviceTimeZone}"`);
  }

  const mediaStore = (read('MEDIA_STORE') ?? 'disk') as 'disk' | 'database';
  if (mediaStore !== 'disk' && mediaStore !== 'database') problems.push(`MEDIA_STORE: must be disk or database, got "${String(mediaStore)}"`);

  const signingKeySecret = read('SIGNING_KEY_SECRET');
  if (signingKeySecret !== undefined && signingKeySecret.length < 32) {
    problems.push('SIGNING_KEY_SECRET: must be at least 32 characters of random text');
  }

  const logLevel = read('LOG_LEVEL') ?? 'info';
  const logFormat = read('LOG_FORMAT') ?? 'json';
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`LOG_FORMAT: must be json or pretty, got "${logFormat}"`);
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }

  const metrics = read('METRICS') ?? 'off';
  if (metrics !== 'on' && metrics !== 'off') problems.push(`METRICS: must be on or off, got "${metrics}"`);
  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) problems.push('METRICS_TOKEN: must be at least 16 characters of random text');
  // Open metrics (routes, status counts, versions, memory, pools) only where nothing but this machine can reach them.
  if (metrics === 'on' && metricsToken === null && !LOOPBACK_HOSTS.has(host)) {
    problems.push(`METRICS_TOKEN: required when METRICS=on and HOST (${host}) is not a loopback address (127.0.0.1, ::1, localhost)`);
  }

  const consoleSignUp = read('CONSOLE_SIGN_UP') ?? 'closed';
  if (consoleSignUp !== 'open' && consoleSignUp !== 'closed') problems.push(`CONSOLE_SIGN_UP: must be open or closed, got "${consoleSignUp}"`);

  const corsOrigins = (read('CORS_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) problems.push(`CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com`);
  }

  const max = 1_000_000_000;
  const operations = {} as Record<OperationId, WindowLimits>;
  for (const op of OPERATION_IDS) {
    const prefix = `RATE_LIMIT_${op.toUpperCase().replace(/\./g, '_')}`;
    const [m, h, d] = OPERATION_DEFAULTS[op];
    operations[op] = {
      perMinute: int(`${prefix}_PER_MINUTE`, m, 1, max),
      perHour: int(`${prefix}_PER_HOUR`, h, 1, max),
      perDay: int(`${prefix}_PER_DAY`, d, 1, max),
    };
  }

  const config: Config = {
    port,
    host,
    instanceName: read('INSTANCE_NAME') ?? `${os.hostname()}:${port}`,
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', 0, 0, 120_000),
    changesRetentionDays: int('CHANGES_RETENTION_DAYS', 30, 1, 3_650),
    webhooks: {
      allowLoopback: bool('WEBHOOKS_ALLOW_LOOPBACK', false),
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      concurrency: int('WEBHOOK_CONCURRENCY', 16, 1, 256),
      builderConcurrency: int('WEBHOOK_BUILDER_CONCURRENCY', 32, 1, 1_024),
      endpointsPerApp: int('WEBHOOK_ENDPOINTS_PER_APP', 10, 1, 100),
    },
    appsPerBuilder: int('APPS_PER_BUILDER', 20, 1, 10_000),
    requestLogPerApp: int('REQUEST_LOG_PER_APP', 1_000, 10, 100_000),
    http: {
      headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000),
      idleTimeoutMs: int('HTTP_IDLE_TIMEOUT_MS', 30_000, 100, 3_600_000),
      keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 3_600_000),
      maxConnections: int('HTTP_MAX_CONNECTIONS', 1_000, 1, 1_000_000),
    },
    dataDir,
    databaseUrl,
    databaseKind,
    sqliteReadWorkers: int('SQLITE_READ_WORKERS', 2, 0, 16),
    // Both well below HTTP_IDLE_TIMEOUT_MS, so a request waiting on the database is answered before its socket closes.
    databaseConnectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 50, 600_000),
    databaseQueryTimeoutMs: int('DATABASE_QUERY_TIMEOUT_MS', 15_000, 50, 3_600_000),
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 500),
    searchPoolSize: int('DATABASE_SEARCH_POOL_SIZE', 4, 1, 500),
    backgroundPoolSize: int('DATABASE_BACKGROUND_POOL_SIZE', 2, 1, 100),
    searchTimeoutMs: int('SEARCH_TIMEOUT_MS', 2000, 50, 600_000),
    redisUrl,
    publicBaseUrl,
    webBaseUrl,
    serviceTimeZone,
    logLevel,
    logFormat: logFormat as 'json' | 'pretty',
    consoleSignUpOpen: consoleSignUp === 'open',
    metrics: { enabled: metrics === 'on', token: metricsToken },
    mail: { smtpUrl, from: mailFrom ?? `no-reply@${new URL(publicBaseUrl).hostname.replace(/^\[|\]$/g, '')}` },
    corsOrigins,
    trustProxy: bool('TRUST_PROXY', false),
    // At most 5 s: a key rotated with no overlap, revoked, or of a deleted app is refused everywhere within it.
    apiKeyCacheSeconds: int('API_KEY_CACHE_SECONDS', 5, 0, 5),
    rateLimits: {
      redisPrefix: read('RATE_LIMIT_REDIS_PREFIX') ?? 'svc:rl:',
      globalPerMinute: int('RATE_LIMIT_GLOBAL_PER_MINUTE', 60, 1, max),
      globalPerDay: int('RATE_LIMIT_GLOBAL_PER_DAY', 5000, 1, max),
      operations,
    },
    media: {
      store: mediaStore,
      maxImageBytes: int('MEDIA_MAX_IMAGE_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      maxRequestBytes: int('MEDIA_MAX_REQUEST_BYTES', 40 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxImagePixels: int('MEDIA_MAX_IMAGE_PIXELS', 40_000_000, 1, 1_000_000_000),
      maxDecodedBytes: int('MEDIA_MAX_DECODED_BYTES', 160 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
      decodeConcurrency: int('MEDIA_DECODE_CONCURRENCY', Math.max(1, Math.floor(os.availableParallelism() / 2)), 1, 256),
    },
    ogFetch: {
      allowedHosts: (read('OG_FETCH_ALLOWED_HOSTS') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
      timeoutMs: int('OG_FETCH_TIMEOUT_MS', 3000, 100, 60_000),
      maxBytes: int('OG_FETCH_MAX_BYTES', 512 * 1024, 1024, 10 * 1024 * 1024),
    },
    clientMetadataAllowedHosts: (read('CLIENT_METADATA_ALLOWED_HOSTS') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    signingKeySecret: read('SIGNING_KEY_SECRET') ?? null,
    loginThrottle: {
      maxFailuresPerAccount: int('LOGIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1000),
      maxFailuresPerAddress: int('LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 100_000),
      windowSeconds: int('LOGIN_FAILURE_WINDOW_SECONDS', 900, 10, 86_400),
    },
    passwordCost: {
      memoryKiB: int('PASSWORD_HASH_MEMORY_KIB', DEFAULT_PASSWORD_COST.memoryKiB, MIN_PASSWORD_COST.memoryKiB, 4 * 1024 * 1024),
      passes: int('PASSWORD_HASH_PASSES', DEFAULT_PASSWORD_COST.passes, MIN_PASSWORD_COST.passes, 20),
    },
    lifetimes: {
      authorizationCodeSeconds: int('AUTH_CODE_TTL_SECONDS', 300, 10, 3600),
      accessTokenSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 900, 30, 86_400),
      refreshTokenSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 30 * 86_400, 60, 365 * 86_400),
    },
  };
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS (${config.http.requestTimeoutMs}), got ${config.http.headersTimeoutMs}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Hides the password of a connection URL so that it can be printed. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}
