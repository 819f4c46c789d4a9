/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured with the standard variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, and the rest of `OTEL_*`: service name,
 * headers, sampler, batch delays; `OTEL_SDK_DISABLED=true` turns it off again). Imported before the service's own
 * modules (server.ts, and the demo's `--import`): it registers the module hook that lets the instrumentations wrap
 * what is imported after it, then starts the SDK with the instrumentations of what the service talks through: HTTP in
 * and out (the API, webhook sends), Fastify's routes and hooks, PostgreSQL (pg) and Redis (ioredis). Spans of the
 * service's own (a search in its index, a webhook delivery) come from trace-spans.ts. Every span is exported through
 * the redaction the logs use (redacting-exporter.ts). Nothing is loaded when off.
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const env = process.env;
const configured =
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
  !/^true$/i.test(env.OTEL_SDK_DISABLED ?? '');

if (configured && isMainThread) {
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
    { FastifyOtelInstrumentation },
    { redactingExporter },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@fastify/otel'),
    import('./redacting-exporter.js'),
  ]);
  // Probes and scrapes would be most of the traces, and say nothing.
  const quiet = new Set(['/healthz', '/readyz', '/metrics']);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'svc-open-api',
    // Secrets in query strings (reset links, authorization codes, keys) are replaced before a span leaves.
    traceExporter: redactingExporter(new OTLPTraceExporter()),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => quiet.has((request.url ?? '').split('?')[0]!),
      }),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // What is still batched goes out when the process ends (a SIGTERM's graceful stop ends in exit).
  process.once('beforeExit', () => {
    void sdk.shutdown();
  });
  process.once('exit', () => {
    void sdk.shutdown();
  });
  await waitForAllMessagesAcknowledged();
}
