import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, CreateQuoteRequest, customerNotReady, invalidInput, FundQuoteRequest, isQuoteId, notConfigured, PlatformFeeOverrideDto, Quote, RECORD_MAX_JSON_LENGTH, RECORD_MAX_KEYS, ScaFactor } from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, EventMetadata, IdempotencyClaims, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import type { AccountDirectory } from '../accounts/account-directory';
import type { CurrencyLimits, PlatformFeeConfig } from '../platform-config/identity-events.consumer';
import type { CustomerDirectory } from '../platform-config/customer-directory';
import type { ServiceFeePricing } from '../fees/fee-schedule.service';
import { feeSchedule, PlatformFees, platformFeesFor } from '../rates/fee-schedule';
import { RateBooks, requireRate } from '../rates/rate-source';
import type { ExchangeRateTerms } from '../rates/exchange-rates';
import type { ScaFactors } from '../sca/sca-factors';
import { AmountRange, ChallengeOffer, QuoteCommand, quoteDecider } from './quote.decider';
import { QuoteEvent, requestExtras } from './quote.events';
import { walletPaymentInstructions, walletPayloadOf, WalletSignatures } from '../wallets/wallet-source';
import { QuoteParties, QuotePartiesResolver } from './quote-parties';
import { projectQuote } from './quote.projection';
import { ExistingQuote, QuoteState } from './quote.state';
import { toQuote } from './quote.view';
import { awaitArrival, idempotencyScopeOf } from '@payments/runtime';

export const QUOTE_EXPIRY_TIMER = 'quoting.quote.expire';

export interface QuoteServiceOptions {
  /** How long a quote's rate and fees hold (the spec: instant rails 1 to 5 minutes). Real time, never scaled. */
  quoteTtlMs: number;
  /** How long one SCA challenge can be answered. Real time. */
  scaChallengeTtlMs: number;
  /** How long a create waits for the platform's currency config or a customer from identity (created a moment ago). */
  configArrivalWaitMs: number;
}

const notFound = () => new ApiError('QUOTE_NOT_FOUND', 'quote not found');

/** Quotes: priced and locked by the decider, read from `quotes`, authorized by SCA, expired by a durable timer. */
export class QuoteService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly rates: RateBooks,
    private readonly accounts: AccountDirectory,
    private readonly customers: CustomerDirectory,
    private readonly parties: QuotePartiesResolver,
    private readonly sca: ScaFactors,
    private readonly options: QuoteServiceOptions,
    private readonly claims: IdempotencyClaims,
    /** Checks Embedded Wallet signatures (wallet-auth) when a quote from a wallet is executed. */
    private readonly wallets: WalletSignatures,
    /** The service's fees: the sandbox's constants, or production's fee schedules. */
    private readonly serviceFees: ServiceFeePricing,
  ) {}

  /** One quote per Idempotency-Key (with its execution, under immediatelyExecute): a retry answers it as it is now. */
  create(caller: CallerContext, request: CreateQuoteRequest, now: string): Promise<Quote> {
    const quoteId = `Quote:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'quote-create', quoteId, (claim) => this.createNew(caller, request, now, quoteId, claim), (id) => this.get(caller, id));
  }

  private async createNew(caller: CallerContext, request: CreateQuoteRequest, now: string, quoteId: string, claim: ClaimInTransaction): Promise<Quote> {
    assertSenderCustomerInfo(request.senderCustomerInfo);
    const parties = await this.parties.resolve(caller, request);
    if (parties.sendingCurrency === parties.receivingCurrency) {
      throw new ApiError('SAME_CURRENCY', `both sides are ${parties.sendingCurrency}: use a same-currency transfer (POST /transfer-out)`);
    }
    // Production without a fresh rate for the corridor answers 501/503 here, before anything is recorded.
    const rate = requireRate(await this.rates.book(caller.mode, now), parties.sendingCurrency, parties.receivingCurrency);
    const terms = await this.platformTerms(caller, parties.sendingCurrency, parties.receivingCurrency);
    const { limits } = terms;
    const fees = request.platformFeeOverride ? overriddenFees(request.platformFeeOverride, parties.sendingCurrency) : terms.fees;
    const service = (await this.serviceFees.serviceFeesFrom(caller, parties.sendingCurrency))(parties.receivingCurrency);
    if (parties.walletSource && request.immediatelyExecute) {
      const message = 'a quote from an Embedded Wallet is executed with the wallet\'s signature: create it, then POST /quotes/{quoteId}/execute with Service-Wallet-Signature';
      throw new ApiError('INVALID_INPUT', message, { errors: [{ field: 'immediatelyExecute', message }] });
    }
    const expiresAt = new Date(Date.parse(now) + this.options.quoteTtlMs).toISOString();
    const command: QuoteCommand = {
      type: 'CreateQuote',
      quoteId,
      transactionId: `Transaction:${uuidv7()}`,
      platformId: caller.platformId,
      mode: caller.mode,
      source: parties.source,
      destination: parties.destination,
      customerId: parties.customerId,
      sendingCurrency: parties.sendingCurrency,
      receivingCurrency: parties.receivingCurrency,
      lockedCurrencySide: request.lockedCurrencySide,
      lockedCurrencyAmount: request.lockedCurrencyAmount,
      description: request.description ?? null,
      ...requestExtras(request),
      immediatelyExecute: request.immediatelyExecute ?? false,
      paymentInstructions: await this.fundingInstructions(caller, parties, quoteId, request, expiresAt, now),
      rate: { midRate: rate.midRate, sourcePerBtc: rate.sourcePerBtc },
      pricing: rate.pricing,
      fees: feeSchedule(parties.sendingCurrency, fees, service),
      serviceFeeSchedule: service.schedule,
      limits,
      sca: await this.scaPlan(caller, parties, request.scaFactor, now),
      now,
      expiresAt,
    };
    // After every 501 about what the deployment lacks (rates, collection details, an SMS provider), as transfers do:
    // the customer's readiness is the last word before anything is recorded.
    await this.assertCustomerReady(caller, parties.customerId, parties.source.sourceType === 'ACCOUNT' ? 'source.accountId' : 'source.customerId');
    const result = await this.executor.execute({
      ...this.request(caller.platformId, quoteId, command, this.metadata(caller)),
      newStream: true, // quoteId was generated for this request (create)
      claim,
      project: async (tx, events, state) => {
        await projectQuote(tx, events, state);
        await this.timers.schedule(tx, { name: QUOTE_EXPIRY_TIMER, delayMs: this.options.quoteTtlMs, realTime: true, streamId: quoteId, platformId: caller.platformId, payload: { quoteId } });
      },
    });
    return this.view(result.state);
  }

  async get(caller: Pick<CallerContext, 'platformId' | 'mode'>, quoteId: string): Promise<Quote> {
    return (await this.find(caller, quoteId)).body;
  }

  /** The quote and its paying customer (not in the public body), or 404 QUOTE_NOT_FOUND. */
  async find(caller: Pick<CallerContext, 'platformId' | 'mode'>, quoteId: string): Promise<{ body: Quote; customerId: string | null }> {
    const rows = isQuoteId(quoteId)
      ? await queryRows<{ body: Quote; customer_id: string | null }>(this.dataSource, `SELECT body, customer_id FROM quotes WHERE quote_id = $1 AND platform_id = $2 AND mode = $3`, [quoteId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return { body: rows[0].body, customerId: rows[0].customer_id };
  }

  /** POST /quotes/{id}/execute: hands the quote to payments (QuoteExecuted.v1); the answer is the PROCESSING quote. */
  async execute(caller: CallerContext, quoteId: string, now: string, walletSignature?: string): Promise<Quote> {
    const { body: quote, customerId } = await this.find(caller, quoteId);
    if (quote.status === 'PENDING') {
      // Approval may have been withdrawn since the quote was made: checked again before money moves.
      await this.assertCustomerReady(caller, customerId, 'quoteId');
      await this.parties.assertPayable(caller, quote.destination);
    }
    const walletPayload = walletPayloadOf(quote.paymentInstructions);
    // Only a quote that can still be executed asks for the signature: a retry after success answers the quote below.
    if (walletPayload && quote.status === 'PENDING' && quote.source.sourceType === 'ACCOUNT') {
      await this.wallets.verify(caller, quote.source.accountId!, walletPayload, walletSignature);
    }
    // A retry of an execution that went through (also after a crash) answers the quote instead of 409.
    return this.claims.run(idempotencyScopeOf(caller), 'quote-execute', quoteId, async (claim) => {
      const result = await this.executor.execute({ ...this.request(caller.platformId, quoteId, { type: 'ExecuteQuote', now }, this.metadata(caller)), claim });
      return this.view(result.state);
    }, (id) => this.get(caller, id));
  }

  /** The realtime funds of a REALTIME_FUNDING quote arrived (POST /sandbox/send through payments). */
  async fund(caller: CallerContext, request: FundQuoteRequest, now: string): Promise<Quote> {
    await this.get(caller, request.quoteId);
    const command: QuoteCommand = { type: 'FundQuote', currencyCode: request.currencyCode, amount: request.amount, now };
    // POST /sandbox/send's key reaches here through payments: a retry of a funding that went through answers the quote instead of 409.
    return this.claims.run(idempotencyScopeOf(caller), 'quote-fund', request.quoteId, async (claim) => {
      const result = await this.executor.execute({ ...this.request(caller.platformId, request.quoteId, command, this.metadata(caller)), claim });
      return this.view(result.state);
    }, (id) => this.get(caller, id));
  }

  /** Runs a command on behalf of the system (payments outcomes, timers) inside the caller's transaction. */
  decideAndAppend(tx: EntityManager, platformId: string, quoteId: string, command: QuoteCommand, metadata: EventMetadata) {
    return this.executor.decideAndAppend(tx, this.request(platformId, quoteId, command, metadata));
  }

  run(request: CommandRequest<EntityManager, QuoteState, QuoteCommand, QuoteEvent>) {
    return this.executor.execute(request);
  }

  request(platformId: string | null, streamId: string, command: QuoteCommand, metadata: EventMetadata): CommandRequest<EntityManager, QuoteState, QuoteCommand, QuoteEvent> {
    return { decider: quoteDecider, streamId, platformId, metadata, command, project: projectQuote };
  }

  metadata(caller: CallerContext): EventMetadata {
    return { correlationId: caller.correlationId, actor: caller.clientId };
  }

  view(state: QuoteState): Quote {
    if (state.status === 'NONE') throw notFound();
    return toQuote(state as ExistingQuote);
  }

  /** A new challenge (id, expiry, factor options); PASSKEY challenges carry the WebAuthn request options. */
  async challengeOffer(caller: Pick<CallerContext, 'platformId' | 'mode'>, customerId: string, factor: ScaFactor | undefined, now: string): Promise<ChallengeOffer> {
    const availableFactors = await this.sca.availableFactors(caller.platformId, caller.mode, customerId);
    // Production has no SMS provider: a customer without a passkey could never authorize the quote.
    if (availableFactors.length === 0) throw noScaFactor(customerId);
    const chosen = factor ?? availableFactors[0];
    if (!availableFactors.includes(chosen)) {
      throw new ApiError('INVALID_INPUT', `${chosen} is not available for this customer (available: ${availableFactors.join(', ')})`, { errors: [{ field: 'scaFactor', message: 'factor not available' }] });
    }
    const id = `ScaChallenge:${uuidv7()}`;
    const passkeyAssertionOptions = chosen === 'PASSKEY' ? ((await this.sca.passkeyAssertionOptions(caller.platformId, caller.mode, customerId, id)) as unknown as Record<string, unknown>) : null;
    return { id, expiresAt: new Date(Date.parse(now) + this.options.scaChallengeTtlMs).toISOString(), factor: chosen, availableFactors, passkeyAssertionOptions };
  }

  /** For ServiceHost's durable timers. */
  timerHandlers(): Record<string, TimerHandler> {
    return { [QUOTE_EXPIRY_TIMER]: (timer) => this.expire(timer) };
  }

  /** A quote no longer PENDING (expired before, executed) appends nothing: a repeat has no effect. */
  private async expire(timer: TimerRow): Promise<void> {
    const { quoteId } = timer.payload as { quoteId: string };
    const metadata = { correlationId: quoteId, causationId: timer.id, actor: 'timer' };
    await this.executor.execute(this.request(timer.platform_id, quoteId, { type: 'ExpireQuote', now: new Date().toISOString() }, metadata));
  }

  /** Production quotes only for APPROVED customers (`customerNotReady`, the rule payments' transfers share). */
  private async assertCustomerReady(caller: CallerContext, customerId: string | null | undefined, field: string): Promise<void> {
    if (caller.mode !== 'PRODUCTION' || !customerId) return;
    const refusal = customerNotReady(caller.mode, customerId, await this.customers.get(caller, customerId, field));
    if (refusal) throw refusal;
  }

  /**
   * Customers in SCA regions authorize every quote (a CURRENCY_CONVERSION round), and a payout to a beneficiary they
   * have not trusted yet (a PAYOUT round, which trusts it). Platform accounts and other regions need no SCA.
   */
  private async scaPlan(caller: CallerContext, parties: QuoteParties, factor: ScaFactor | undefined, now: string) {
    if (!parties.customerId) return null;
    const customer = await this.customers.get(caller, parties.customerId, parties.source.sourceType === 'ACCOUNT' ? 'source.accountId' : 'source.customerId');
    if (!customer.scaRequired) return null;
    const purposes = parties.payoutToBeneficiary ? ['CURRENCY_CONVERSION', 'PAYOUT'] : ['CURRENCY_CONVERSION'];
    return { purposes, firstChallenge: await this.challengeOffer(caller, customer.customerId, factor, now) };
  }

  private async fundingInstructions(caller: CallerContext, parties: QuoteParties, quoteId: string, request: CreateQuoteRequest, expiresAt: string, now: string) {
    if (parties.walletSource && parties.source.sourceType === 'ACCOUNT') {
      const { sendingCurrency, receivingCurrency, destination } = parties;
      const { lockedCurrencySide, lockedCurrencyAmount } = request;
      return walletPaymentInstructions({ quoteId, accountId: parties.source.accountId, destination, sendingCurrency, receivingCurrency, lockedCurrencySide, lockedCurrencyAmount, expiresAt }, now);
    }
    if (parties.source.sourceType !== 'REALTIME_FUNDING') return null;
    const instructions = await this.accounts.realtimeFundingInstructions(caller, quoteId, parties.sendingCurrency);
    if (instructions.length === 0) {
      throw notConfigured(
        'COLLECTION_DETAILS',
        `realtime funding in ${parties.sendingCurrency} needs collection details from a banking partner, and none is configured in ${caller.mode.toLowerCase()} mode`,
        `collection details for ${parties.sendingCurrency} from a banking partner (not available in this release)`,
        { currency: parties.sendingCurrency },
      );
    }
    return instructions;
  }

  /**
   * The platform's limits of the sending currency (it must be configured) and of the receiving one when configured,
   * and its own fees on the sending currency (PlatformConfig.feeConfigs).
   */
  private async platformTerms(caller: CallerContext, sending: string, receiving: string): Promise<{ limits: { sending: AmountRange; receiving?: AmountRange }; fees: PlatformFees }> {
    const terms = await awaitArrival(async () => {
      const rows = await queryRows<{ configs: CurrencyLimits[]; fee_configs: PlatformFeeConfig[] }>(
        this.dataSource,
        `SELECT configs, fee_configs FROM platform_currency_configs WHERE platform_id = $1 AND mode = $2`,
        [caller.platformId, caller.mode],
      );
      const configs = rows.flatMap((r) => r.configs);
      const range = (code: string): AmountRange | undefined => {
        const c = configs.find((x) => x.currencyCode === code);
        return c && Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount) ? { min: c.minAmount!, max: c.maxAmount! } : undefined;
      };
      const sendingRange = range(sending);
      if (sendingRange) return { limits: { sending: sendingRange, receiving: range(receiving) }, fees: platformFeesFor(rows[0].fee_configs, sending) };
      return rows.length > 0 ? null : undefined; // the config is here and lacks the currency: waiting cannot help
    }, this.options.configArrivalWaitMs);
    if (!terms) throw new ApiError('INVALID_CURRENCY', `${sending} is not a configured currency of the platform`, { errors: [{ field: 'source', message: `the platform config has no ${sending} limits` }] });
    return terms;
  }
}

/** The published rule: an override replaces the configured platform fee, for USD sources, in the source currency. */
function overriddenFees(override: PlatformFeeOverrideDto, sendingCurrency: string): PlatformFees {
    if (sendingCurrency !== 'USD') throw invalidInput('platformFeeOverride', `platformFeeOverride is supported when the source currency is USD, not ${sendingCurrency}`);
  if (override.platformFixedFee.currency !== sendingCurrency) {
    throw invalidInput('platformFeeOverride.platformFixedFee.currency', `the fixed fee must be in the source currency ${sendingCurrency}`);
  }
  return { variableFeeBps: override.platformVariableFeeBps, fixedFee: override.platformFixedFee.amount };
}

/** Production sends no SMS: SCA there takes an enrolled passkey. */
function noScaFactor(customerId: string): ApiError {
  return notConfigured(
    'SMS_PROVIDER',
    `this customer must pass strong customer authentication, and production has no SMS provider for SMS_OTP: enrol the customer's SCA passkey first (POST /customers/${customerId}/sca/passkey/registration-options, then POST /customers/${customerId}/sca/passkey)`,
    'an SMS provider (not available in this release), or the customer\'s SCA passkey',
  );
}

/** senderCustomerInfo is free-form (as published) but kept in events: at most RECORD_MAX_KEYS keys of 1 to 128 characters and RECORD_MAX_JSON_LENGTH characters. */
function assertSenderCustomerInfo(info: Record<string, unknown> | undefined): void {
  if (info === undefined) return;
  const keys = Object.keys(info);
  if (keys.length <= RECORD_MAX_KEYS && keys.every((k) => k.length >= 1 && k.length <= 128) && JSON.stringify(info).length <= RECORD_MAX_JSON_LENGTH) return;
  const message = `senderCustomerInfo takes at most ${RECORD_MAX_KEYS} keys of 1 to 128 characters and ${RECORD_MAX_JSON_LENGTH} characters as JSON`;
  throw new ApiError('INVALID_INPUT', message, { errors: [{ field: 'senderCustomerInfo', message }] });
}

/** The currencies the platform configured (PATCH /config supportedCurrencies), in their configured order. */
export async function configuredCurrencies(dataSource: DataSource, caller: Pick<CallerContext, 'platformId' | 'mode'>): Promise<string[]> {
  const rows = await queryRows<{ configs: CurrencyLimits[] }>(dataSource, `SELECT configs FROM platform_currency_configs WHERE platform_id = $1 AND mode = $2`, [caller.platformId, caller.mode]);
  return rows.flatMap((r) => r.configs.map((c) => c.currencyCode));
}

/**
 * For GET /exchange-rates: the platform's own fees on `sendingCurrency`, the service's per destination and its
 * min/max of that currency (none before its config arrived, or when it does not configure the currency), read as a
 * quote reads them.
 */
export async function exchangeRateTerms(dataSource: DataSource, caller: Pick<CallerContext, 'platformId' | 'mode'>, sendingCurrency: string, pricing: ServiceFeePricing): Promise<ExchangeRateTerms> {
  const rows = await queryRows<{ configs: CurrencyLimits[]; fee_configs: PlatformFeeConfig[] }>(
    dataSource,
    `SELECT configs, fee_configs FROM platform_currency_configs WHERE platform_id = $1 AND mode = $2`,
    [caller.platformId, caller.mode],
  );
  const config = rows.flatMap((r) => r.configs).find((c) => c.currencyCode === sendingCurrency);
  const sendingRange = config && Number.isSafeInteger(config.minAmount) && Number.isSafeInteger(config.maxAmount) ? { min: config.minAmount!, max: config.maxAmount! } : undefined;
  const serviceFees = await pricing.serviceFeesFrom(caller, sendingCurrency);
  return { fees: platformFeesFor(rows.flatMap((r) => r.fee_configs), sendingCurrency), serviceFees, ...(sendingRange ? { sendingRange } : {}) };
}
