import { Controller, Inject } from '@nestjs/common';
import {
  EmptyBody,
  ListWebhookDeliveriesQuery,
  Page,
  RpcRequest,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryIdBody,
  WebhookRedeliveryResult,
  WebhooksRpc,
  WebhookTestResult,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Webhooks } from './webhooks';
import { WEBHOOKS } from './webhooks.tokens';

/** Thin RPC adapter of the webhook dispatcher. */
@Controller()
export class WebhooksRpcController {
  constructor(@Inject(WEBHOOKS) private readonly webhooks: Webhooks) {}

  @Handles(WebhooksRpc.sendTest)
  sendTest(r: RpcRequest<EmptyBody>): Promise<WebhookTestResult> {
    return this.webhooks.sendTest(r.caller);
  }

  @Handles(WebhooksRpc.listDeliveries)
  listDeliveries(r: RpcRequest<ListWebhookDeliveriesQuery>): Promise<Page<WebhookDelivery>> {
    return this.webhooks.deliveries.list(r.caller, r.body);
  }

  @Handles(WebhooksRpc.getDelivery)
  getDelivery(r: RpcRequest<WebhookDeliveryIdBody>): Promise<WebhookDeliveryDetail> {
    return this.webhooks.deliveries.get(r.caller, r.body.webhookId);
  }

  @Handles(WebhooksRpc.redeliver)
  redeliver(r: RpcRequest<WebhookDeliveryIdBody>): Promise<WebhookDelivery> {
    return this.webhooks.deliveries.redeliver(r.caller, r.body.webhookId);
  }

  @Handles(WebhooksRpc.redeliverDeadLetters)
  redeliverDeadLetters(r: RpcRequest<EmptyBody>): Promise<WebhookRedeliveryResult> {
    return this.webhooks.deliveries.redeliverDeadLetters(r.caller);
  }

  @Handles(WebhooksRpc.ping)
  async ping(): Promise<'pong'> {
    await this.webhooks.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
