import type { EventBus } from '@payments/messaging';
import type { ServiceHost } from '../service-host';
import { createAppRegistry } from './app-registry';
import { busCheck, databaseCheck } from './dependency-checks';
import { OpsServer, startOpsServer } from './ops-server';
import { registerServiceHostMetrics } from './service-host-metrics';

export interface ServiceOpsOptions {
  /** The app label, e.g. `identity`. */
  app: string;
  service: ServiceHost;
  /** ServiceHost only publishes; readiness also needs to ping the transport. */
  bus: Pick<EventBus, 'ping'>;
  host: string;
  port: number;
  checkTimeoutMs?: number;
}

/** The ops server of an event-sourced service: ready when its database and bus answer; store and relay metrics. */
export function startServiceOps(options: ServiceOpsOptions): Promise<OpsServer> {
  const registry = createAppRegistry(options.app);
  registerServiceHostMetrics(registry, options.service);
  return startOpsServer({
    app: options.app,
    host: options.host,
    port: options.port,
    registry,
    checks: { database: databaseCheck(options.service.dataSource), bus: busCheck(options.bus) },
    checkTimeoutMs: options.checkTimeoutMs,
  });
}
