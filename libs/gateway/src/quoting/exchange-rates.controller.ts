import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ExchangeRate, ExchangeRatesQuery, QuotingRpc } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const DESCRIPTION =
  'Mid rates from `sourceCurrency` to each `destinationCurrency` (repeat the parameter or join codes with commas; omitted: ' +
  'every other supported currency), with the fees a quote adds, and `sendingAmount` (10000 by default, source currency ' +
  'smallest unit) priced exactly as a SENDING quote of that amount: `receivingAmount`, `exchangeRate`, `fees`. Rates are ' +
  'cached per 5-minute window (`updatedAt` to `expiresAt`); a quote locks the rate of its creation.';

/** Exchange rates (the spec leaves the path open: docs/quotes.md). */
@ApiTags('Exchange Rates')
@Controller()
export class ExchangeRatesController {
  constructor(@Inject(QUOTING_CLIENT) private readonly quoting: ServiceClient) {}

  @Get('exchange-rates')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List exchange rates', description: DESCRIPTION, query: ExchangeRatesQuery, ok: 'ExchangeRateList', errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ExchangeRatesQuery): Promise<{ data: ExchangeRate[] }> {
    return this.quoting.call(QuotingRpc.exchangeRates, { caller: r.caller, body: query });
  }
}
