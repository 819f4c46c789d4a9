/**
 * The service's own spans, beside the instrumentations' (tracing.ts): a search in the index, and a webhook delivery
 * in the trace of the write that made its change. Through @opentelemetry/api alone, which does nothing when tracing
 * is off (no SDK started): then no span is made and nothing is kept.
 */
import { context, ROOT_CONTEXT, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';

const tracer = trace.getTracer('svc-open-api');

/** `work` inside a span `name` with `attributes`, ended when it settles (an error recorded on it). */
export async function inSpan<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  work: () => Promise<T>,
): Promise<T> {
  if (!trace.getSpan(context.active())) return work();
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The trace each change was written in, by change id, for its deliveries from this instance (the newest kept). */
const writtenIn = new Map<string, SpanContext>();
const KEPT = 10_000;

/** Called where a change is written: remembers the trace it was written in, when there is one. */
export function rememberTraceOf(changeId: string): void {
  const span = trace.getSpanContext(context.active());
  if (!span) return;
  writtenIn.set(changeId, span);
  if (writtenIn.size > KEPT) writtenIn.delete(writtenIn.keys().next().value!);
}

/**
 * `work` (a delivery of change `changeId`) inside a span of the trace its change was written in, when this instance
 * wrote it; else in a trace of its own. Its HTTP request is then a child of that span.
 */
export async function inTraceOf<T>(
  changeId: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  const parent = writtenIn.get(changeId);
  const base = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  return context.with(base, () =>
    tracer.startActiveSpan(
      'webhook delivery',
      { attributes: { ...attributes, 'svc.change_id': changeId } },
      async (span) => {
        try {
          return await work();
        } finally {
          span.end();
        }
      },
    ),
  );
}
