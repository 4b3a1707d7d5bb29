import type { Serializer } from '@nestjs/microservices';
import { Attributes, context, contextFromCarrier, markFailed, platformTracer, Span, SpanKind, trace, traceCarrier, TraceCarrier } from '@payments/observability';
import { finalize, isObservable, Observable, tap } from 'rxjs';

/**
 * Tracing of the services' RPC (@nestjs/microservices TCP, or in-process): no instrumentation sees it, so the client
 * and server spans are made here, and over TCP the caller's context rides in the request packet as `trace` (next to
 * Nest's `pattern`, `data` and `id`; handlers only ever see `data`). In-process, the active context is already the
 * caller's (AsyncLocalStorage), so nothing needs to be carried.
 */
export type RpcTransport = 'tcp' | 'inproc';

function rpcAttributes(service: string, pattern: string, transport: RpcTransport): Attributes {
  return { 'rpc.system': 'nestjs-tcp', 'rpc.service': service, 'rpc.method': pattern, 'network.transport': transport };
}

/** `<service>/<pattern>`, as RPC span names are (`{rpc.service}/{rpc.method}`). */
const spanName = (service: string, pattern: string) => `${service}/${pattern}`;

/** The CLIENT span of one call, active while `call` runs (so the TCP serializer and an in-process handler see it). */
export function inRpcClientSpan<T>(service: string, pattern: string, transport: RpcTransport, call: () => Promise<T>): Promise<T> {
  const span = platformTracer().startSpan(spanName(service, pattern), { kind: SpanKind.CLIENT, attributes: rpcAttributes(service, pattern, transport) });
  return context.with(trace.setSpan(context.active(), span), call).then(
    (result) => (span.end(), result),
    (error: unknown) => {
      markRpcError(span, error);
      span.end();
      throw error;
    },
  );
}

/**
 * A service's refusal (an error envelope or ApiError below 500: not found, invalid input, a rule) is an answer, not
 * a fault: it is named in `error.type` and the span stays unset; 5xx, timeouts and crashes mark it failed.
 */
function markRpcError(span: Span, error: unknown): void {
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  if (typeof code === 'string') span.setAttribute('error.type', code);
  if (typeof status === 'number' && status < 500) return;
  markFailed(span, error);
}

/** Client side of the TCP transport: adds the active trace context to each request packet. */
export class TracingPacketSerializer implements Serializer {
  serialize(packet: Record<string, unknown>): Record<string, unknown> {
    const carrier = traceCarrier();
    return carrier.traceparent ? { ...packet, trace: carrier } : packet;
  }
}

/** Server side: runs the rest of a TCP packet's handling in the context its `trace` names (ROOT when none). */
export function inPacketContext<T>(rawMessage: unknown, handle: () => T): T {
  const carrier = (rawMessage as { trace?: TraceCarrier } | null)?.trace;
  return carrier ? context.with(contextFromCarrier(carrier), handle) : handle();
}

type NestHandler = (data: unknown, ctx: unknown) => Promise<unknown>;

/**
 * A handler wrapped in a SERVER span, child of the active context (the caller's). Nest handlers answer an Observable
 * (the controller has already run by then, in the span); the span ends when it completes or fails.
 */
export function tracedHandler(service: string, pattern: string, transport: RpcTransport, handler: NestHandler): NestHandler {
  return async (data, ctx) => {
    const span = platformTracer().startSpan(spanName(service, pattern), { kind: SpanKind.SERVER, attributes: rpcAttributes(service, pattern, transport) });
    const inSpan = trace.setSpan(context.active(), span);
    let answer: unknown;
    try {
      answer = await context.with(inSpan, () => handler(data, ctx));
    } catch (error) {
      markRpcError(span, error);
      span.end();
      throw error;
    }
    if (!isObservable(answer)) {
      span.end();
      return answer;
    }
    // With interceptors (e.g. the RPC metrics), Nest runs the controller only when the answer is subscribed to: the
    // subscription must happen in the span's context too, or the controller's work would join the caller's span.
    const traced = (answer as Observable<unknown>).pipe(
      tap({ error: (error: unknown) => markRpcError(span, error) }),
      finalize(() => span.end()),
    );
    return new Observable<unknown>((subscriber) => context.with(inSpan, () => traced.subscribe(subscriber)));
  };
}
