import type { Registry } from 'prom-client';
import type { EventBus } from '@payments/messaging';
import type { ServiceHost } from '../service-host';
import { createAppRegistry } from './app-registry';
import { registerConsumerLagMetrics } from './bus-metrics';
import { poolOfDataSource, registerDbPoolMetrics } from './db-pool-metrics';
import { busCheck, databaseCheck } from './dependency-checks';
import { OpsServer, startOpsServer } from './ops-server';
import type { ReadinessChecks } from './readiness';
import { registerServiceHostMetrics } from './service-host-metrics';

/**
 * What the ops server needs of the bus: a ping for readiness and, when the bus offers it, the lag of the app's
 * consumer groups. Callers that type the bus as `Pick<EventBus, 'ping'>` still hand over the whole bus.
 */
export type OpsBus = Pick<EventBus, 'ping'> & Partial<Pick<EventBus, 'consumerBacklog'>>;

export interface ServiceOpsOptions {
  /** The app label, e.g. `identity`; also the prefix of its consumer groups (`identity.…`). */
  app: string;
  service: ServiceHost;
  bus: OpsBus;
  host: string;
  port: number;
  /** The app's registry when it records metrics of its own (RPC handlers, deliveries); else one is created. */
  registry?: Registry;
  checkTimeoutMs?: number;
}

/** What an event-sourced service's ops endpoints serve: its readiness checks and its registry. */
export interface ServiceOps {
  registry: Registry;
  checks: ReadinessChecks;
}

/**
 * The ops of an event-sourced service: ready when its database and bus answer; store, relay, timer, pool and
 * consumer-lag metrics. Served by its own ops server (startServiceOps) or, in the embedded mode, by the one ops
 * server of the process.
 */
export function serviceOps(options: Omit<ServiceOpsOptions, 'host' | 'port' | 'checkTimeoutMs'>): ServiceOps {
  const registry = options.registry ?? createAppRegistry(options.app);
  // Pool gauges first: a scrape collects in registration order, and the reads below take pool connections.
  registerDbPoolMetrics(registry, { [options.service.options.name]: () => poolOfDataSource(options.service.dataSource) });
  registerServiceHostMetrics(registry, options.service);
  const { bus } = options;
  if (bus.consumerBacklog) registerConsumerLagMetrics(registry, { consumerBacklog: (prefix) => bus.consumerBacklog!(prefix) }, options.app);
  return { registry, checks: { database: databaseCheck(options.service.dataSource), bus: busCheck(options.bus) } };
}

/** The ops server of an event-sourced service, on its own port (the cluster mode). */
export function startServiceOps(options: ServiceOpsOptions): Promise<OpsServer> {
  const { registry, checks } = serviceOps(options);
  return startOpsServer({ app: options.app, host: options.host, port: options.port, registry, checks, checkTimeoutMs: options.checkTimeoutMs });
}
