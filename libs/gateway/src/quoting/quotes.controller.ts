import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateQuoteRequest, ExecuteQuoteRequest, Quote, QuotingRpc, ScaAuthorization } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const CREATE =
  'Locks an exchange rate and fees until `expiresAt` (QUOTE_TTL_MS, 5 minutes by default). Sources: ACCOUNT (an internal ' +
  'account) or REALTIME_FUNDING (`customerId`, `currency`: the quote carries paymentInstructions and executes when the funds ' +
  'arrive). Destinations: ACCOUNT (internal or external) or UMA_ADDRESS (`umaAddress`, `currency?`, with the request\'s ' +
  '`lookupId` from GET /receiver/uma/{address}). The same currency on both sides is 400 SAME_CURRENCY (use a transfer). The ' +
  'sending amount must lie within the platform\'s minAmount/maxAmount (400 AMOUNT_OUT_OF_RANGE). Customers in SCA regions ' +
  '(EU/EEA) get PENDING_AUTHORIZATION with a `scaChallenge`; `immediatelyExecute` hands an ACCOUNT quote to payments at once ' +
  '(PROCESSING). An unexecuted quote turns EXPIRED at expiresAt. `remittanceInformation` (up to 80 characters), ' +
  '`purposeOfPayment` and `senderCustomerInfo` (what the destination asked about the sender) are kept with the quote and ' +
  'handed to payments on execution; the Quote does not show them.';
const EXECUTE =
  'Hands a PENDING ACCOUNT-funded quote to payments: it turns PROCESSING and cannot be cancelled. 409 QUOTE_EXPIRED after ' +
  'expiresAt, 409 SCA_SESSION_REQUIRED while PENDING_AUTHORIZATION, 409 INVALID_STATE_TRANSITION once executed or for a ' +
  'REALTIME_FUNDING quote (it executes when its funds arrive).';
const AUTHORIZE =
  'Answers the quote\'s current SCA challenge with a `code` (SMS_OTP; sandbox 123456) or a `passkeyAssertion` and its ' +
  '`origin` (PASSKEY, verified as WebAuthn). The answer may carry the next challenge (a new id) until the quote leaves ' +
  'PENDING_AUTHORIZATION. 400 SCA_AUTHORIZATION_FAILED for a wrong proof (5 failures fail the quote), 400 ' +
  'SCA_CHALLENGE_EXPIRED after the challenge\'s expiresAt (a new challenge is issued; see details.quote), 409 ' +
  'SCA_NOT_REQUIRED for customers outside SCA regions.';

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

  @Post('quotes/:quoteId/execute')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Execute a quote', description: EXECUTE, body: ExecuteQuoteRequest, ok: 'Quote', errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] })
  execute(@Req() r: AuthenticatedRequest, @Param('quoteId') quoteId: string, @Body() body: ExecuteQuoteRequest): Promise<Quote> {
    return this.quoting.call(QuotingRpc.executeQuote, { caller: r.caller, body: { ...body, quoteId } });
  }

  @Post('quotes/:quoteId/authorize')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Authorize a quote (Strong Customer Authentication)', description: AUTHORIZE, body: ScaAuthorization, ok: 'Quote', errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 501, 503] })
  authorize(@Req() r: AuthenticatedRequest, @Param('quoteId') quoteId: string, @Body() body: ScaAuthorization): Promise<Quote> {
    return this.quoting.call(QuotingRpc.authorizeQuote, { caller: r.caller, body: { quoteId, authorization: body } });
  }

  @Get('quotes/:quoteId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a quote', ok: 'Quote', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('quoteId') quoteId: string): Promise<Quote> {
    return this.quoting.call(QuotingRpc.getQuote, { caller: r.caller, body: { quoteId } });
  }
}
