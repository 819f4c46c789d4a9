/**
 * The settings as the service uses them: read and checked once at start from the table in settings.ts (where each is
 * declared, with its default and meaning), then shaped by area. A rule between settings is checked here.
 */
import { OPERATION_IDS, operationLimitName, readSettings, type OperationId, type SettingValues } from './settings.js';

export { OPERATION_IDS, redactUrl, type OperationId } from './settings.js';

/** Addresses only this machine can reach. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

export interface WindowLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** The settings' values shaped by area (what every part of the service is given). */
function configOf(v: SettingValues) {
  const limit = v as unknown as Record<string, number>;
  const operations = Object.fromEntries(
    OPERATION_IDS.map((op) => [
      op,
      {
        perMinute: limit[operationLimitName(op, 'PER_MINUTE')]!,
        perHour: limit[operationLimitName(op, 'PER_HOUR')]!,
        perDay: limit[operationLimitName(op, 'PER_DAY')]!,
      },
    ]),
  ) as Record<OperationId, WindowLimits>;
  return {
    port: v.PORT,
    host: v.HOST,
    instanceName: v.INSTANCE_NAME,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    changesRetentionDays: v.CHANGES_RETENTION_DAYS,
    webhooks: {
      allowLoopback: v.WEBHOOKS_ALLOW_LOOPBACK,
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      concurrency: v.WEBHOOK_CONCURRENCY,
      builderConcurrency: v.WEBHOOK_BUILDER_CONCURRENCY,
      endpointsPerApp: v.WEBHOOK_ENDPOINTS_PER_APP,
    },
    appsPerBuilder: v.APPS_PER_BUILDER,
    requestLogPerApp: v.REQUEST_LOG_PER_APP,
    http: {
      headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: v.HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: v.HTTP_MAX_CONNECTIONS,
    },
    dataDir: v.DATA_DIR,
    /** `postgres://…` or an absolute SQLite file path. */
    databaseUrl: v.DATABASE_URL.url,
    databaseKind: v.DATABASE_URL.kind,
    sqliteReadWorkers: v.SQLITE_READ_WORKERS,
    databaseConnectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueryTimeoutMs: v.DATABASE_QUERY_TIMEOUT_MS,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    searchPoolSize: v.DATABASE_SEARCH_POOL_SIZE,
    backgroundPoolSize: v.DATABASE_BACKGROUND_POOL_SIZE,
    searchTimeoutMs: v.SEARCH_TIMEOUT_MS,
    redisUrl: v.REDIS_URL,
    publicBaseUrl: v.PUBLIC_BASE_URL,
    webBaseUrl: v.WEB_BASE_URL,
    serviceTimeZone: v.SERVICE_TIME_ZONE,
    logLevel: v.LOG_LEVEL as string,
    logFormat: v.LOG_FORMAT,
    consoleSignUpOpen: v.CONSOLE_SIGN_UP === 'open',
    metrics: { enabled: v.METRICS === 'on', token: v.METRICS_TOKEN },
    mail: { smtpUrl: v.SMTP_URL, from: v.MAIL_FROM },
    corsOrigins: v.CORS_ORIGINS,
    trustProxy: v.TRUST_PROXY,
    apiKeyCacheSeconds: v.API_KEY_CACHE_SECONDS,
    rateLimits: {
      redisPrefix: v.RATE_LIMIT_REDIS_PREFIX,
      globalPerMinute: v.RATE_LIMIT_GLOBAL_PER_MINUTE,
      globalPerDay: v.RATE_LIMIT_GLOBAL_PER_DAY,
      profileReadsPerDay: v.PROFILE_READS_PER_DAY,
      operations,
    },
    media: {
      store: v.MEDIA_STORE,
      maxImageBytes: v.MEDIA_MAX_IMAGE_BYTES,
      maxRequestBytes: v.MEDIA_MAX_REQUEST_BYTES,
      maxImagePixels: v.MEDIA_MAX_IMAGE_PIXELS,
      maxDecodedBytes: v.MEDIA_MAX_DECODED_BYTES,
      decodeConcurrency: v.MEDIA_DECODE_CONCURRENCY,
    },
    ogFetch: {
      allowedHosts: v.OG_FETCH_ALLOWED_HOSTS,
      timeoutMs: v.OG_FETCH_TIMEOUT_MS,
      maxBytes: v.OG_FETCH_MAX_BYTES,
    },
    clientMetadataAllowedHosts: v.CLIENT_METADATA_ALLOWED_HOSTS,
    signingKeySecret: v.SIGNING_KEY_SECRET,
    loginThrottle: {
      maxFailuresPerAccount: v.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: v.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: v.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    passwordCost: { memoryKiB: v.PASSWORD_HASH_MEMORY_KIB, passes: v.PASSWORD_HASH_PASSES },
    lifetimes: {
      authorizationCodeSeconds: v.AUTH_CODE_TTL_SECONDS,
      accessTokenSeconds: v.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenSeconds: v.REFRESH_TOKEN_TTL_SECONDS,
    },
  };
}

export type Config = ReturnType<typeof configOf>;

/** Reads and validates every setting; throws ConfigError naming each bad one. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const { values, problems } = readSettings(env, cwd);
  const config = configOf(values);
  // Open metrics (routes, status counts, versions, memory, pools) only where nothing but this machine can reach them.
  if (config.metrics.enabled && config.metrics.token === null && !LOOPBACK_HOSTS.has(config.host)) {
    problems.push(
      `METRICS_TOKEN: required when METRICS=on and HOST (${config.host}) is not a loopback address (127.0.0.1, ::1, localhost)`,
    );
  }
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS (${config.http.requestTimeoutMs}), got ${config.http.headersTimeoutMs}`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
