import { DynamicModule, Module } from '@nestjs/common';
import { ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
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
export function startWebhookDispatcherServer(
  webhooks: Webhooks,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  // Worker first, consumer second: they stop in reverse, so the consumer stops enqueueing before the worker drains.
  return startServiceServer({
    name: WEBHOOKS_SERVICE,
    app: WEBHOOK_DISPATCHER_APP,
    registry: webhooks.registry,
    module: WebhooksRpcModule.forWebhooks(webhooks),
    host: webhooks.host,
    rpc,
    ops,
    background: [webhooks.worker, webhooks.events],
    log,
  });
}
