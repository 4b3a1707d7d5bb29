import './compile-cache'; // before anything else loads, so it is cached too
import { startTracing } from './tracing';

// The first import of every entry point (apps/*/src/main.ts, the admin CLI): turns on the compile cache, then starts
// tracing from the OTEL_* variables before Nest, pg or the HTTP servers are loaded, so their instrumentations can patch
// them. Tracing does nothing when it is off.
startTracing();
