import { Counter, Histogram, Registry } from 'prom-client';
import { createAppRegistry } from '@payments/runtime';
import type { RpcSample } from '../rpc/service-client';

/** The gateway's registry and its instruments: HTTP traffic by route template, and RPC calls to services. */
export class GatewayMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly rpcSeconds: Histogram<'service' | 'pattern' | 'outcome'>;

  constructor(app = 'gateway') {
    this.registry = createAppRegistry(app);
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, matched route template (`unmatched` when none) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request reaching the gateway to the last byte of the answer.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.rpcSeconds = new Histogram({
      name: 'rpc_client_duration_seconds',
      help: 'RPC calls from the gateway to a service: ok, error (the service answered with an error), timeout, unavailable.',
      labelNames: ['service', 'pattern', 'outcome'],
      registers,
    });
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  /** Arrow property: handed to ServiceClient as its observer. */
  readonly recordRpc = (sample: RpcSample): void => {
    this.rpcSeconds.observe({ service: sample.service, pattern: sample.pattern, outcome: sample.outcome }, sample.seconds);
  };
}
