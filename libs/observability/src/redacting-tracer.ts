import {
  Attributes,
  AttributeValue,
  Context,
  context,
  Exception,
  Link,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  trace,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { redactTokenPaths } from './token-paths';

const redactValue = (value: AttributeValue | undefined): AttributeValue | undefined => (typeof value === 'string' ? redactTokenPaths(value) : value);

function redactAttributes<T extends Attributes | undefined>(attributes: T): T {
  if (!attributes) return attributes;
  return Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, redactValue(value)])) as T;
}

/**
 * The span an instrumentation holds, with every name, attribute, event and exception passed through
 * redactTokenPaths on the way in: what the SDK records (and exports) never had the token.
 */
class RedactingSpan implements Span {
  constructor(private readonly span: Span) {}

  spanContext(): SpanContext {
    return this.span.spanContext();
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.span.setAttribute(key, redactValue(value)!);
    return this;
  }
  setAttributes(attributes: Attributes): this {
    this.span.setAttributes(redactAttributes(attributes));
    return this;
  }
  addEvent(name: string, attributesOrStartTime?: Attributes | TimeInput, startTime?: TimeInput): this {
    const isAttributes = typeof attributesOrStartTime === 'object' && !Array.isArray(attributesOrStartTime) && !(attributesOrStartTime instanceof Date);
    this.span.addEvent(redactTokenPaths(name), isAttributes ? redactAttributes(attributesOrStartTime as Attributes) : attributesOrStartTime, startTime);
    return this;
  }
  addLink(link: Link): this {
    this.span.addLink({ ...link, attributes: redactAttributes(link.attributes) });
    return this;
  }
  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.span.setStatus(status.message === undefined ? status : { ...status, message: redactTokenPaths(status.message) });
    return this;
  }
  updateName(name: string): this {
    this.span.updateName(redactTokenPaths(name));
    return this;
  }
  end(endTime?: TimeInput): void {
    this.span.end(endTime);
  }
  isRecording(): boolean {
    return this.span.isRecording();
  }
  recordException(exception: Exception, time?: TimeInput): void {
    if (typeof exception === 'string') return this.span.recordException(redactTokenPaths(exception), time);
    const { name, message, stack, code } = exception as { name?: string; message?: string; stack?: string; code?: string | number };
    this.span.recordException({ name: name ?? 'Error', code, message: message && redactTokenPaths(message), stack: stack && redactTokenPaths(stack) } as Exception, time);
  }
}

function redactingTracer(tracer: Tracer): Tracer {
  const startSpan = (name: string, options: SpanOptions = {}, ctx?: Context): Span =>
    new RedactingSpan(tracer.startSpan(redactTokenPaths(name), { ...options, attributes: redactAttributes(options.attributes) }, ctx));
  return {
    startSpan,
    // The SDK's own startActiveSpan would start the span on the inner tracer: rebuilt on ours (same overloads).
    startActiveSpan(name: string, ...rest: unknown[]) {
      const fn = rest.pop() as (span: Span) => unknown;
      const [options, ctx] = rest as [SpanOptions | undefined, Context | undefined];
      const parent = ctx ?? context.active();
      const span = startSpan(name, options, parent);
      return context.with(trace.setSpan(parent, span), fn, undefined, span);
    },
  } as Tracer;
}

/**
 * A TracerProvider whose spans cannot record a credential that travels in a path (card reveal links, hosted KYC
 * links, agent device codes; token-paths.ts). Given to the instrumentations (http, Nest, pg), which put the
 * request's path into span names and attributes (url.path, url.full, http.target, http.url, http.route) that no
 * instrumentation hook reaches in full; a wrapper at the source covers all of them and any future attribute.
 */
export function redactingTracerProvider(provider: TracerProvider): TracerProvider {
  return { getTracer: (name, version, options) => redactingTracer(provider.getTracer(name, version, options)) };
}
