import { Controller, Inject } from '@nestjs/common';
import { EmptyBody, RpcRequest, WebhooksRpc, WebhookTestResult } from '@payments/contracts';
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

  @Handles(WebhooksRpc.ping)
  async ping(): Promise<'pong'> {
    await this.webhooks.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
