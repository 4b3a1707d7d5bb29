import { activeTraceparent, Attributes, Context, context, inSpan, SpanKind } from '@payments/observability';
import type { EventMetadata } from './envelope';

/** `Transaction:<uuid>` → `Transaction`: span names stay few (one per aggregate type), the id goes in an attribute. */
export function streamCategory(streamId: string): string {
  const colon = streamId.indexOf(':');
  return colon > 0 ? streamId.slice(0, colon) : streamId;
}

/**
 * The span of one command on the write path (`append <Category>`: load, decide, append, project, commit), whether
 * it ran alone or in a group commit. It is the parent the stored events name: their metadata gets its traceparent,
 * so the relay's publish span, and everything downstream, joins the trace of the request that caused them.
 */
export function inCommandSpan<T extends { events: readonly unknown[] }>(streamId: string, schema: string | undefined, work: () => Promise<T>): Promise<T> {
  const attributes: Attributes = { 'db.system.name': 'postgresql', 'db.operation.name': 'append', 'eventstore.stream_id': streamId };
  if (schema) attributes['db.namespace'] = schema;
  return inSpan(`append ${streamCategory(streamId)}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    const result = await work();
    span.setAttribute('eventstore.events_appended', result.events.length);
    return result;
  });
}

/** The command's metadata with the active trace context, unless the caller set one (a consumer passing its own). */
export function withTraceparent(metadata: EventMetadata | undefined): EventMetadata | undefined {
  if (metadata?.traceparent) return metadata;
  const traceparent = activeTraceparent();
  return traceparent ? { ...metadata, traceparent } : metadata;
}

/** Runs `work` in a captured context (a group commit writes in the context of the command that opened the group). */
export function inContext<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  return context.with(ctx, work);
}

export const activeContext = (): Context => context.active();
