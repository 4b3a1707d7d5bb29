import { Context, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The trace context crosses the hops auto-instrumentation cannot see (RPC packets, event metadata, Kafka and bus
 * headers, queued webhooks, durable timers) as a W3C `traceparent`, written and read by the propagator the SDK
 * installs (OTEL_PROPAGATORS, `tracecontext,baggage` by default). With tracing off nothing is written or read.
 */
export type TraceCarrier = Record<string, string>;

/** The propagator's fields for the active context (or `ctx`); empty when tracing is off or no span is active. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The active span's `traceparent`, to store next to work that continues later (an event, a queued row). */
export function activeTraceparent(ctx: Context = context.active()): string | undefined {
  return traceCarrier(ctx).traceparent;
}

/** The context a carrier names, under ROOT: work resumed from a message or a row joins its trace, not the loop's. */
export function contextFromCarrier(carrier: Readonly<Record<string, unknown>> | null | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    keys: (c) => Object.keys(c),
    get: (c, key) => (typeof c[key] === 'string' ? (c[key] as string) : undefined),
  });
}

/** contextFromCarrier for a stored `traceparent` (null or absent: a fresh trace). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? contextFromCarrier({ traceparent }) : ROOT_CONTEXT;
}
