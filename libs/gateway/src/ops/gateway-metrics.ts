import { Counter, Histogram, Registry } from 'prom-client';
import { createAppRegistry, statusClassOf } from '@payments/runtime';
import type { RpcSample } from '../rpc/service-client';

/** Label of requests no declared operation served (ops endpoints, API reference, hosted pages, 404s). */
export const NO_OPERATION = 'none';

/**
 * The gateway's registry and its instruments: RED metrics of the HTTP API by declared operation (operationId) and
 * route template, and RPC calls to services.
 */
export class GatewayMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'route' | 'operation' | 'status' | 'status_class'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'operation' | 'status_class'>;
  private readonly rpcSeconds: Histogram<'service' | 'pattern' | 'outcome'>;

  /** `operations`: `<METHOD> <route template>` → operationId (operationIdsByRoute). */
  constructor(
    app = 'gateway',
    private readonly operations: ReadonlyMap<string, string> = new Map(),
  ) {
    this.registry = createAppRegistry(app);
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'payments_http_requests_total',
      help: 'HTTP requests answered, by method, matched route template (`unmatched` when none), operationId (`none` outside the API), status and status class.',
      labelNames: ['method', 'route', 'operation', 'status', 'status_class'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'payments_http_request_duration_seconds',
      help: 'Time from the request reaching the gateway to the last byte of the answer, by route, operation and status class.',
      labelNames: ['method', 'route', 'operation', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.rpcSeconds = new Histogram({
      name: 'payments_rpc_client_duration_seconds',
      help: 'RPC calls from the gateway to a service: ok, error (the service answered with an error), timeout, unavailable.',
      labelNames: ['service', 'pattern', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    const operation = this.operations.get(`${method} ${route}`) ?? NO_OPERATION;
    const status_class = statusClassOf(status);
    this.requests.inc({ method, route, operation, status: String(status), status_class });
    this.requestSeconds.observe({ method, route, operation, status_class }, seconds);
  }

  /** Arrow property: handed to ServiceClient as its observer. */
  readonly recordRpc = (sample: RpcSample): void => {
    this.rpcSeconds.observe({ service: sample.service, pattern: sample.pattern, outcome: sample.outcome }, sample.seconds);
  };
}
