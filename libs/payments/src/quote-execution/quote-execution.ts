import type { DataSource, EntityManager } from 'typeorm';
import { ApiError, CallerContext, decode, Quote, QuoteExecutedData, QUOTING_EVENTS, SandboxSendRequest, Transaction } from '@payments/contracts';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { sandboxUmaReceiver } from '@payments/uma';
import { Peers, systemCaller } from '../rpc/peers';
import { LedgerPlan, quotePlan } from '../saga/ledger-plan';
import { INTERNAL_SCRIPT, RailScript, sandboxUmaScript } from '../saga/rail-script';
import { TransactionSaga } from '../saga/transaction-saga';
import type { Rails } from '../rails/rails';
import { TransactionTerms } from '../transactions/transaction.events';
import { TransactionState } from '../transactions/transaction.state';
import { toTransaction } from '../transactions/transaction.view';

export const QUOTE_EXECUTED_CONSUMER = 'payments.quote-executed';

/**
 * The quote-execution saga's entry: quoting's QuoteExecuted.v1 (and POST /sandbox/send, through the same `ensure`)
 * opens the OutgoingTransaction `quote.transactionId`; the saga then holds, pays out and settles it. Creating it is
 * idempotent by that id, and the inbox row commits with it, so a redelivery has one effect.
 */
export class QuoteExecution {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly saga: TransactionSaga,
    private readonly peers: Peers,
    private readonly timeScale: number,
    private readonly rails: Rails,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: QUOTE_EXECUTED_CONSUMER, topics: [serviceTopic('quoting')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(QUOTING_EVENTS, envelope);
    if (event?.type !== 'QuoteExecuted.v1') return; // unknown, internal or not ours
    const data = event.data;
    const created = await this.dataSource.transaction(async (tx) => {
      if (!(await recordInInbox(tx, this.schema, QUOTE_EXECUTED_CONSUMER, event.eventId))) return false;
      await this.ensure(data, { correlationId: event.metadata.correlationId, causationId: event.eventId, actor: 'quoting' }, tx);
      return true;
    });
    // The hold is placed now; its timer retries it should this stop in between.
    if (created) await this.saga.holdNow(data.quote.transactionId);
  }

  /** POST /sandbox/send: quoting checks and funds the quote, then the transaction exists as for any execution. */
  async sandboxSend(caller: CallerContext, request: SandboxSendRequest, now: string): Promise<Transaction> {
    if (caller.mode !== 'SANDBOX') throw new ApiError('NOT_FOUND', 'not found');
    const quote = await this.peers.fundQuote(caller, { quoteId: request.quoteId, currencyCode: request.currencyCode, ...(request.currencyAmount !== undefined ? { amount: request.currencyAmount } : {}) });
    const customerId = quote.source.sourceType === 'REALTIME_FUNDING' ? quote.source.customerId : null;
    const data: QuoteExecutedData = { quoteId: quote.id, quote, platformId: caller.platformId, mode: caller.mode, customerId, executedAt: now, funding: 'REALTIME_FUNDING' };
    const state = await this.ensure(data, { correlationId: caller.correlationId, actor: caller.clientId });
    if (state.status === 'NONE') throw new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
    return toTransaction(state);
  }

  /** Creates the quote's transaction unless it exists (then it answers it as it is). */
  async ensure(data: QuoteExecutedData, metadata: Record<string, unknown>, tx?: EntityManager): Promise<TransactionState> {
    const existing = await this.saga.load(data.quote.transactionId, tx);
    if (existing.status !== 'NONE') return existing;
    const { terms, unavailable } = await this.terms(data);
    const command = unavailable
      ? ({ type: 'CreateTransaction', terms, status: 'FAILED', failureReason: 'RAIL_NOT_AVAILABLE' } as const)
      : ({ type: 'CreateTransaction', terms, status: terms.plan.hold ? 'PENDING' : 'PROCESSING', failureReason: null } as const);
    return this.saga.apply(terms.transactionId, data.platformId, command, metadata, { tx });
  }

  private async terms(data: QuoteExecutedData): Promise<{ terms: TransactionTerms; unavailable: boolean }> {
    const q = data.quote;
    const caller = systemCaller(data.platformId, data.mode);
    const payout = await this.payout(caller, q);
    const source = q.source.sourceType === 'ACCOUNT' && data.funding === 'ACCOUNT' ? { accountId: q.source.accountId } : ('REALTIME_FUNDING' as const);
    const plan: LedgerPlan = quotePlan(
      q.transactionId,
      {
        sendingCurrency: q.sendingCurrency.code,
        receivingCurrency: q.receivingCurrency.code,
        totalSendingAmount: q.totalSendingAmount,
        totalReceivingAmount: q.totalReceivingAmount,
        feesIncluded: q.feesIncluded,
        platformFeesIncluded: q.platformFeesIncluded ?? 0,
      },
      source,
      payout.internalAccountId ? { internalAccountId: payout.internalAccountId } : 'PAYOUT',
    );
    const seconds = payout.rail?.outcome === 'CONNECTOR' ? 0 : Math.round(((payout.rail?.delayMs ?? 0) * this.timeScale) / 1000);
    const paymentRail = payout.rail?.outcome === 'CONNECTOR' ? payout.rail.paymentRail : q.destination.destinationType === 'ACCOUNT' ? (q.destination.paymentRail ?? null) : null;
    const terms: TransactionTerms = {
      transactionId: q.transactionId,
      platformId: data.platformId,
      mode: data.mode,
      type: 'OUTGOING',
      direction: 'DEBIT',
      customerId: data.customerId,
      source: q.source.sourceType === 'ACCOUNT' ? { sourceType: 'ACCOUNT', accountId: q.source.accountId, currency: q.sendingCurrency.code } : { sourceType: 'REALTIME_FUNDING', currency: q.source.currency, customerId: q.source.customerId },
      destination: q.destination.destinationType === 'ACCOUNT'
        ? { destinationType: 'ACCOUNT', accountId: q.destination.accountId, currency: q.receivingCurrency.code }
        : { destinationType: 'UMA_ADDRESS', umaAddress: q.destination.umaAddress, currency: q.receivingCurrency.code },
      sentAmount: { amount: q.totalSendingAmount, currency: q.sendingCurrency.code },
      receivedAmount: { amount: q.totalReceivingAmount, currency: q.receivingCurrency.code },
      fees: q.feesIncluded,
      platformFees: q.platformFeesIncluded ?? 0,
      exchangeRate: q.exchangeRate,
      quoteId: q.id,
      description: q.description ?? null,
      paymentRail,
      railSelectionMode: paymentRail ? 'MANUAL' : payout.internalAccountId ? null : 'AUTO',
      settlementTimelineSeconds: payout.internalAccountId ? null : Math.round((Date.parse(data.executedAt) - Date.parse(q.createdAt)) / 1000) + seconds,
      expectedSettlementAt: payout.internalAccountId ? null : new Date(Date.parse(data.executedAt) + seconds * 1000).toISOString(),
      rateDetails: { ...q.rateDetails },
      reference: q.transactionId.slice('Transaction:'.length).replace(/-/g, '').slice(0, 16).toUpperCase(),
      plan,
      rail: payout.rail ?? INTERNAL_SCRIPT,
      createdAt: data.executedAt,
    };
    // A production payout with no connector routed (the rails changed since the quote was made) fails, nothing moved.
    return { terms, unavailable: !payout.rail };
  }

  /**
   * Where the money goes and which rail moves it: the sandbox's simulated rail, or in production the connector
   * routed for the currency (undefined when none is: the payout cannot run).
   */
  private async payout(caller: CallerContext, q: Quote): Promise<{ internalAccountId?: string; rail?: RailScript }> {
    if (q.destination.destinationType === 'UMA_ADDRESS') return caller.mode === 'SANDBOX' ? { rail: sandboxUmaScript(sandboxUmaReceiver(q.destination.umaAddress)?.outcome) } : {};
    const account = await this.peers.accountCurrency(caller, q.destination.accountId);
    if (account.kind === 'INTERNAL') return { internalAccountId: account.accountId, rail: INTERNAL_SCRIPT };
    const sandboxSuffix = caller.mode === 'SANDBOX' ? await this.peers.sandboxSuffix(caller, account.accountId) : null;
    const rail = this.rails.railFor({ mode: caller.mode, currency: account.currency, direction: 'PAYOUT', paymentRails: q.destination.paymentRail ? [q.destination.paymentRail] : [], sandboxSuffix });
    return { rail: rail && !('immediateFailure' in rail) ? rail : undefined };
  }
}
