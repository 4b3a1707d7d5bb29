import { startTracing } from './tracing';

// The first import of every entry point (apps/*/src/main.ts): starts tracing from the OTEL_* variables before Nest,
// pg or the HTTP servers are loaded, so their instrumentations can patch them. Does nothing when tracing is off.
startTracing();
