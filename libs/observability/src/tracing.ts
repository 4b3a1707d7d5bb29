import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { tracingRequested } from './tracing-config';

/** One instrumentation, as sdk-node takes it (the type of @opentelemetry/instrumentation, which sdk-node pulls in). */
export type Instrumentation = Exclude<NodeSDKConfiguration['instrumentations'][number], unknown[]>;

export interface TracingOptions {
  env?: NodeJS.ProcessEnv;
  /** Tests: these processors instead of the exporter the environment names; tracing is then on whatever the env says. */
  spanProcessors?: SpanProcessor[];
}

/** The running SDK: its instrumentations (tests apply them by hand, see libs/testing) and a flush-and-stop. */
export interface Tracing {
  instrumentations: Instrumentation[];
  shutdown(): Promise<void>;
}

let running: Tracing | undefined;

/**
 * Starts the OpenTelemetry SDK once per process when tracing is requested (tracing-config.ts) or span processors are
 * given; otherwise returns undefined without loading it. Must run before Nest, pg and node:http's users are required: the
 * instrumentations patch modules as they load (entry points import `@payments/observability/register` first).
 */
export function startTracing(options: TracingOptions = {}): Tracing | undefined {
  if (running) return running;
  if (!options.spanProcessors && !tracingRequested(options.env)) return undefined;
  // Loaded here, not at the top: a process that does not trace never pays for the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  const started = sdk.startSdk(options);
  running = {
    instrumentations: started.instrumentations,
    shutdown: async () => {
      running = undefined;
      await started.shutdown();
    },
  };
  return running;
}

/** Exports what is still buffered and stops the SDK (on SIGTERM, before the process exits); nothing when off. */
export async function stopTracing(): Promise<void> {
  await running?.shutdown();
}
