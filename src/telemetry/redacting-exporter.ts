/**
 * The span exporter of the traces, behind one redaction: every span leaves the process with the secret query values of
 * its attributes, its name and its events' attributes replaced (redacted-url.ts), whichever instrumentation recorded
 * them (HTTP in and out: `url.full`, `url.query`, `http.target`, `http.url`; Fastify's; ours). The logs use the same
 * function, so a reset link or an authorization code is kept out of both alike.
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { redactedUrl } from '../shared/redacted-url.js';

type SpanExporter = NonNullable<NonNullable<ConstructorParameters<typeof NodeSDK>[0]>['traceExporter']>;
type ReadableSpan = Parameters<SpanExporter['export']>[0][number];
type Attributes = ReadableSpan['attributes'];

/** `inner`, sent spans with their secrets replaced. */
export function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(redactedSpan), done),
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush!() } : {}),
  };
}

/** The attributes with each string value that holds a secret query value replaced (the same object when none does). */
function redactedAttributes(attributes: Attributes): Attributes {
  let out: Attributes | null = null;
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value !== 'string') continue;
    const clean = redactedUrl(value);
    if (clean !== value) (out ??= { ...attributes })[key] = clean;
  }
  return out ?? attributes;
}

/** A span as it may leave: the span itself when nothing in it holds a secret, else a view of it with them replaced. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  const attributes = redactedAttributes(span.attributes);
  const name = redactedUrl(span.name);
  let eventsChanged = false;
  const events = span.events.map((event) => {
    if (!event.attributes) return event;
    const clean = redactedAttributes(event.attributes);
    if (clean === event.attributes) return event;
    eventsChanged = true;
    return { ...event, attributes: clean };
  });
  if (attributes === span.attributes && name === span.name && !eventsChanged) return span;
  // The span's other fields and methods (spanContext(), resource, …) are read through it.
  return Object.create(span, {
    attributes: { value: attributes, enumerable: true },
    name: { value: name, enumerable: true },
    events: { value: events, enumerable: true },
  }) as ReadableSpan;
}
