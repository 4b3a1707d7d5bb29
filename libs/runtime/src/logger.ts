import pino, { Logger } from 'pino';

/** JSON logs (pino). Secrets, OTPs and keys are never passed to it; `redact` is a second line of defence. */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    redact: { paths: ['*.clientSecret', '*.secret', '*.password', '*.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  });
}

export type { Logger };
