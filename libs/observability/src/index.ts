// Light on purpose: only @opentelemetry/api is loaded by importing this; the SDK loads in startTracing, when asked for.
export * from './tracing-config';
export * from './tracing';
export * from './trace-context';
export * from './spans';
export * from './log-fields';
export * from './token-paths';
