import type { IncomingMessage } from 'node:http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { context, propagation, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { redactingTracerProvider } from './redacting-tracer';
import type { Instrumentation, TracingOptions } from './tracing';
import { DEFAULT_SERVICE_NAME } from './tracing-config';

/** Probes and scrapes answer every few seconds: spans of them would drown the traces of real requests. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The instrumentations this platform needs, and only those (auto-instrumentations-node would load ~40). kafkajs is
 * left out on purpose: the relay sends events of many requests in one `send`, which that instrumentation would parent
 * to the relay loop; libs/messaging makes the producer and consumer spans itself, per event, for both bus adapters.
 */
export function platformInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
    }),
    new NestInstrumentation(),
    // Only inside a trace: the relays', timers' and bus consumers' idle polls would each start a trace of their own.
    // Parameter values are never recorded (they hold customer data).
    new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
  ];
}

/** NodeSDK configured by the OTEL_* variables (exporter, endpoint, protocol, sampler, propagators, resource). */
export function startSdk(options: TracingOptions): { instrumentations: Instrumentation[]; shutdown(): Promise<void> } {
  const env = options.env ?? process.env;
  const instrumentations = platformInstrumentations();
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES still win: the env detector's attributes merge over this one.
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || DEFAULT_SERVICE_NAME }),
    instrumentations,
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    // Traces only: metrics stay on /metrics (Prometheus), logs on stdout with their trace ids.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // Their spans hold request paths: through a provider that cuts the credential out of token paths first.
  const provider = redactingTracerProvider(trace.getTracerProvider());
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  return {
    instrumentations,
    shutdown: async () => {
      await sdk.shutdown(); // flushes the exporter
      // NodeSDK leaves its patches and globals in place; a process (or a test file) that stops tracing drops them.
      for (const instrumentation of instrumentations) instrumentation.disable();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
