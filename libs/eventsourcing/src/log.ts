/** How infrastructure components report what they do; the app injects its logger (pino, …). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFn = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
