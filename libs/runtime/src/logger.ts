import pino, { DestinationStream, Logger } from 'pino';
import { traceLogFields } from '@payments/observability';
import type { LogFn } from '@payments/eventsourcing';
import { redactForLog, redactText } from './log-redaction';

/**
 * JSON logs (pino). Secrets, OTPs and keys are never passed to it on purpose; every argument still goes through
 * redactForLog (log-redaction.ts) before pino sees it: secret-named keys at any depth, PAN-looking digits and token
 * path segments in any string (the message too), database errors without their bound parameters. A line logged
 * while a span is active carries its `trace_id` and `span_id` (the mixin reads the active context).
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    mixin: traceLogFields,
    // pino's default merges the line's object INTO the mixin's, which is frozen when no span is active (a TypeError
    // for every `logger.x({...})` outside a request); the merge object here is redactForLog's fresh copy, ours to extend.
    mixinMergeStrategy: (mergeObject: object, mixinObject: object) => (Object.keys(mixinObject).length === 0 ? mergeObject : { ...mixinObject, ...mergeObject }),
    // `err` arrives already as redactForLog's plain object; pino's own serializer would rename its type to "Object".
    serializers: { err: (value: unknown) => (value instanceof Error ? redactForLog(value) : value) },
    formatters: { bindings: (bindings) => redactForLog(bindings) as pino.Bindings },
    hooks: {
      logMethod(args, method) {
        // logger.error(error, 'msg') is pino's shorthand for { err: error }: kept so, as a redacted plain object.
        const [first, ...rest] = args as unknown[];
        const head = first instanceof Error ? { err: redactForLog(first) } : typeof first === 'string' ? redactText(first) : redactForLog(first);
        const tail = rest.map((arg) => (typeof arg === 'string' ? redactText(arg) : redactForLog(arg)));
        return method.apply(this, [head, ...tail] as Parameters<typeof method>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };

/**
 * The event bus's log (retries, outages waited out, parked messages) into the app's logger, with the component
 * named: without it the bus reports errors only, on stderr, and the poison-message runbook's first line is missing.
 */
export function busLogOf(logger: Logger): LogFn {
  const bus = logger.child({ component: 'messaging' });
  return (level, message, fields) => bus[level](fields ?? {}, message);
}
