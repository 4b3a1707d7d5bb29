import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WebhooksRpc, WebhookTestResult } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/** Nest DI token of the webhook dispatcher's RPC client. */
export const WEBHOOKS_CLIENT = Symbol('WebhooksClient');

/** POST /sandbox/webhooks/test (sandbox only: production credentials get 404 from the auth guard). */
@ApiTags('Sandbox')
@Controller('sandbox/webhooks')
export class SandboxWebhooksController {
  constructor(@Inject(WEBHOOKS_CLIENT) private readonly webhooks: ServiceClient) {}

  @Post('test')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Send a test webhook',
    description:
      'Sends a signed `TEST` webhook (`data: {}`) to the configured `webhookEndpoint` now and answers with what the endpoint replied; ' +
      'never retried. 400 `WEBHOOK_ENDPOINT_NOT_SET` when no endpoint is configured, 400 `WEBHOOK_DELIVERY_ERROR` when it did not answer. Needs MANAGE.',
    ok: 'WebhookTestResult',
    okStatus: 200,
    errors: [400, 401, 403, 404, 429, 500, 503],
  })
  test(@Req() request: AuthenticatedRequest): Promise<WebhookTestResult> {
    return this.webhooks.call(WebhooksRpc.sendTest, { caller: request.caller, body: {} });
  }
}
