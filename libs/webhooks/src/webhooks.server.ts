import { DynamicModule, Module } from '@nestjs/common';
import type { EventBus } from '@payments/messaging';
import { busCheck, databaseCheck, registerServiceHostMetrics, ServiceServer, startOpsServer, startServiceServer } from '@payments/runtime';
import { Webhooks, WEBHOOK_DISPATCHER_APP, WEBHOOKS_SERVICE } from './webhooks';
import { WebhooksRpcController } from './webhooks.rpc.controller';
import { WEBHOOKS } from './webhooks.tokens';

@Module({})
class WebhooksRpcModule {
  static forWebhooks(webhooks: Webhooks): DynamicModule {
    return { module: WebhooksRpcModule, controllers: [WebhooksRpcController], providers: [{ provide: WEBHOOKS, useValue: webhooks }] };
  }
}

/**
 * Serves the dispatcher: its RPC (the sandbox TEST), the event consumer, the delivery worker, and /healthz, /readyz,
 * /metrics from its own registry (delivery metrics next to the host's).
 */
export async function startWebhookDispatcherServer(
  webhooks: Webhooks,
  rpc: { host: string; port: number },
  log?: (message: string, error?: unknown) => void,
  ops?: { host: string; port: number; bus: Pick<EventBus, 'ping'> },
): Promise<ServiceServer> {
  // Worker first, consumer second: they stop in reverse, so the consumer stops enqueueing before the worker drains.
  const server = await startServiceServer({ name: WEBHOOKS_SERVICE, module: WebhooksRpcModule.forWebhooks(webhooks), host: webhooks.host, rpc, background: [webhooks.worker, webhooks.events], log });
  if (!ops) return server;
  try {
    registerServiceHostMetrics(webhooks.registry, webhooks.host);
    const checks = { database: databaseCheck(webhooks.host.dataSource), bus: busCheck(ops.bus) };
    const opsServer = await startOpsServer({ app: WEBHOOK_DISPATCHER_APP, host: ops.host, port: ops.port, registry: webhooks.registry, checks });
    return { ...server, ops: opsServer, stop: () => opsServer.stop().then(() => server.stop()) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
