import { Histogram, Registry } from 'prom-client';

/** `2xx`, `4xx`, `5xx`: the class of the HTTP status the answer maps to (a rule failure is 4xx, a crash 5xx). */
export const statusClassOf = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * RED metrics of a service's RPC handlers (rate, errors, duration per message pattern). The RPC server's handler
 * wrapper (rpc-tracing.ts `tracedHandler`, the one place every call passes, over TCP and in-process alike) reports
 * each answer here: not a Nest interceptor, whose per-call RxJS and async-context plumbing cost the read path ~10%.
 */
export class RpcServerMetrics {
  private readonly seconds: Histogram<'service' | 'pattern' | 'status_class'>;

  constructor(
    registry: Registry,
    private readonly service: string,
  ) {
    this.seconds = new Histogram({
      name: 'payments_rpc_server_duration_seconds',
      help: 'RPC calls a service handled, by message pattern and the status class of the answer (4xx: a rule refused it, 5xx: it failed).',
      labelNames: ['service', 'pattern', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }

  /** One answered call: its pattern, the status its answer maps to, how long the handler took. */
  readonly record = (pattern: string, status: number, seconds: number): void => {
    this.seconds.observe({ service: this.service, pattern, status_class: statusClassOf(status) }, seconds);
  };
}
