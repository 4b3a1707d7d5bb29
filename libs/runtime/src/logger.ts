import pino, { DestinationStream, Logger } from 'pino';
import { traceLogFields } from '@payments/observability';

/**
 * JSON logs (pino). Secrets, OTPs and keys are never passed to it; `redact` is a second line of defence. A line
 * logged while a span is active carries its `trace_id` and `span_id` (the mixin reads the active context).
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    mixin: traceLogFields,
    redact: { paths: ['*.clientSecret', '*.secret', '*.password', '*.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
