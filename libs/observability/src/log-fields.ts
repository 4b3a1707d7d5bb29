import { isSpanContextValid, trace } from '@opentelemetry/api';

const NONE = Object.freeze({});

/**
 * The active span's ids as log fields (`trace_id`, `span_id`, `trace_flags`, the names of the OpenTelemetry log data
 * model), so a log line can be found from its trace and back. A pino mixin: called for every line, so it allocates
 * nothing when no span is active (tracing off, or a line logged outside any request).
 */
export function traceLogFields(): Readonly<Record<string, string>> {
  const span = trace.getActiveSpan();
  if (!span) return NONE;
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return NONE;
  return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: ids.traceFlags.toString(16).padStart(2, '0') };
}
