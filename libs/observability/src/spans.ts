import { Attributes, Context, context, Link, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';

// Re-exported so the libs that make spans depend on this lib alone, not on the API package's layout.
export { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace };
export type { Attributes, Context, Span };

/** The tracer of every span this platform makes by hand (the instrumentations have their own). */
export function platformTracer(): Tracer {
  return trace.getTracer('payments-platform');
}

export interface InSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** Parent context; the active one when absent. */
  parent?: Context;
}

/**
 * Runs `work` in a new active span that ends when it settles; a throw marks the span failed and is rethrown. With
 * tracing off this is the API's no-op span: one object, no clock read, no export.
 */
export function inSpan<T>(name: string, options: InSpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const { parent = context.active(), ...spanOptions } = options;
  return platformTracer().startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Records a failure on a span: ERROR status with a short description, and the exception event. */
export function markFailed(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  const message = error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  span.recordException(error instanceof Error ? error : { message });
  span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 300) });
}
