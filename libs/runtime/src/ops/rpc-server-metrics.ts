import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { TcpContext } from '@nestjs/microservices';
import { Histogram, Registry } from 'prom-client';
import { Observable, tap } from 'rxjs';
import { toEnvelope } from '../rpc/rpc-error.filter';

/** `2xx`, `4xx`, `5xx`: the class of the HTTP status the answer maps to (a rule failure is 4xx, a crash 5xx). */
export const statusClassOf = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * RED metrics of a service's RPC handlers (rate, errors, duration per message pattern), as a global interceptor:
 * it sees every call, over TCP and in-process alike (both run the same Nest handler chain), and classifies an error
 * the way the error filter will answer it.
 */
export class RpcServerMetrics implements NestInterceptor {
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

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = performance.now();
    const pattern = context.switchToRpc().getContext<TcpContext>().getPattern();
    let recorded = false;
    const record = (status: number) => {
      if (recorded) return;
      recorded = true;
      this.seconds.observe({ service: this.service, pattern, status_class: statusClassOf(status) }, (performance.now() - started) / 1000);
    };
    // The answer is the first value: an in-process caller unsubscribes on it, before any completion arrives.
    return next.handle().pipe(
      tap({
        next: () => record(200),
        complete: () => record(200),
        error: (error: unknown) => record(toEnvelope(error, () => undefined).status),
      }),
    );
  }
}
