import type { FastifyRequest } from 'fastify';
import { redactedUrl } from './redacted-url.js';

/** pino's `timestamp` option: the time as an ISO 8601 UTC field (what pino's own `stdTimeFunctions.isoTime` writes). */
const isoTime = () => `,"time":"${new Date().toISOString()}"`;

/** Never log a credential, even if a future log line includes headers. */
export const LOG_REDACTIONS = [
  'req.headers.authorization',
  'req.headers["x-svc-api-key"]',
  'req.headers["x-rp-api-key"]',
  'req.headers["x-oba-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'req.headers["x-svc-internal-call"]',
];

/**
 * The logger of the service: credential headers redacted, and request URLs logged without secret query values.
 * `pretty` writes readable lines through pino-pretty (local time, no pid or host); `json` one object a line, with the
 * level by name (`"level":"info"`) and the time in ISO 8601 UTC (`"time":"2026-12-01T09:30:00.000Z"`), which log
 * stores (Loki, Elasticsearch, Datadog) read without a parser of their own.
 */
export function loggerOptions(level: string, format: 'json' | 'pretty' = 'json') {
  return {
    level,
    ...(format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId', singleLine: true },
          },
        }
      : { formatters: { level: (label: string) => ({ level: label }) }, timestamp: isoTime }),
    redact: LOG_REDACTIONS,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactedUrl(request.originalUrl),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
