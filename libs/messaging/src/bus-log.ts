import type { LogFn, LogLevel } from '@payments/eventsourcing';

/** How the adapters report what they do; inject the app's logger (pino, …) to see more than errors. */
export type BusLogLevel = LogLevel;
export type BusLog = LogFn;

/**
 * Default: errors only, one JSON line on stderr. Retries and dead-lettering are expected behaviour and would only
 * be noise without the app's logger; a failure of the bus itself must still be visible.
 */
export const errorsOnlyLog: BusLog = (level, message, fields) => {
  if (level !== 'error') return;
  process.stderr.write(`${JSON.stringify({ level, component: 'messaging', message, ...fields })}\n`);
};

export { describeError } from '@payments/eventsourcing';
