import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcRequest, WebhooksRpc, WebhookTestResult } from '@payments/contracts';
import type { Webhooks } from './webhooks';
import { WEBHOOKS } from './webhooks.tokens';

/** Thin RPC adapter of the webhook dispatcher. */
@Controller()
export class WebhooksRpcController {
  constructor(@Inject(WEBHOOKS) private readonly webhooks: Webhooks) {}

  @MessagePattern(WebhooksRpc.sendTest)
  sendTest(@Payload() r: RpcRequest): Promise<WebhookTestResult> {
    return this.webhooks.sendTest(r.caller);
  }

  @MessagePattern(WebhooksRpc.ping)
  async ping(): Promise<string> {
    await this.webhooks.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
