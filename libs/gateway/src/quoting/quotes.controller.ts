import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateQuoteRequest, Quote, QuotingRpc } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const CREATE =
  'Locks an exchange rate and fees until `expiresAt` (QUOTE_TTL_MS, 5 minutes by default). The currencies are those of the ' +
  'source (an internal account) and destination (an internal or external account) accounts; the same currency on both ' +
  'sides is a 400 SAME_CURRENCY (use a same-currency transfer). The sending amount must lie within the platform\'s ' +
  'minAmount/maxAmount of the sending currency (400 AMOUNT_OUT_OF_RANGE). An unexecuted quote turns EXPIRED at expiresAt.';

/** Cross-currency quotes: a priced, time-limited offer. */
@ApiTags('Cross-Currency Transfers')
@Controller()
export class QuotesController {
  constructor(@Inject(QUOTING_CLIENT) private readonly quoting: ServiceClient) {}

  @Post('quotes')
  @HttpCode(201)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Create a quote', description: CREATE, body: CreateQuoteRequest, ok: 'Quote', okStatus: 201, errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] })
  create(@Req() r: AuthenticatedRequest, @Body() body: CreateQuoteRequest): Promise<Quote> {
    return this.quoting.call(QuotingRpc.createQuote, { caller: r.caller, body });
  }

  @Get('quotes/:quoteId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a quote', ok: 'Quote', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('quoteId') quoteId: string): Promise<Quote> {
    return this.quoting.call(QuotingRpc.getQuote, { caller: r.caller, body: { quoteId } });
  }
}
