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

/** Told once per handled call: the HTTP status class source (200, or the error envelope's status) and how long it took. */
export type AnswerObserver = (pattern: string, status: number, seconds: number) => void;

/** The status an RPC answer maps to: 200, or the error envelope's (the error filter has run: a crash is 500). */
const statusOfRpcError = (error: unknown): number => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 500;
};

/**
 * A handler wrapped once for everything a server observes of it: a SERVER span, child of the active context (the
 * caller's), and the answer's status and duration for the RPC metrics (`observe`). Nest handlers answer an
 * Observable; the answer is its first value (an in-process caller unsubscribes on it), and with interceptors the
 * controller runs only when it is subscribed to: the subscription happens in the span's context too.
 */
export function tracedHandler(service: string, pattern: string, transport: RpcTransport, handler: NestHandler, observe?: AnswerObserver): NestHandler {
  return async (data, ctx) => {
    const started = performance.now();
    const span = platformTracer().startSpan(spanName(service, pattern), { kind: SpanKind.SERVER, attributes: rpcAttributes(service, pattern, transport) });
    const inSpan = trace.setSpan(context.active(), span);
    let answered = false;
    const answer = (status: number) => {
      if (answered) return;
      answered = true;
      observe?.(pattern, status, (performance.now() - started) / 1000);
    };
    const fail = (error: unknown) => {
      answer(statusOfRpcError(error));
      markRpcError(span, error);
    };
    let result: unknown;
    try {
      result = await context.with(inSpan, () => handler(data, ctx));
    } catch (error) {
      fail(error);
      span.end();
      throw error;
    }
    if (!isObservable(result)) {
      answer(200);
      span.end();
      return result;
    }
    const traced = (result as Observable<unknown>).pipe(
      tap({ next: () => answer(200), complete: () => answer(200), error: fail }),
      finalize(() => span.end()),
    );
    return new Observable<unknown>((subscriber) => context.with(inSpan, () => traced.subscribe(subscriber)));
  };
}
