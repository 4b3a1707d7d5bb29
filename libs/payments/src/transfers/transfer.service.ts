import { v7 as uuidv7 } from 'uuid';
import { AccountCurrency, ApiError, CallerContext, externalAccountNotActive, noProductionRail, notConfigured, PayableExternalAccount, RailDirection, Transaction, TransferInRequest, TransferOutRequest } from '@payments/contracts';
import { ClaimInTransaction, IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { assertCustomerReady, CustomerDirectory } from '../customers/customer-directory';
import { Peers } from '../rpc/peers';
import { transferInPlan, transferOutPlan } from '../saga/ledger-plan';
import { RailScript } from '../saga/rail-script';
import type { RailChoice, Rails } from '../rails/rails';
import { TransactionSaga } from '../saga/transaction-saga';
import { TransactionTerms } from '../transactions/transaction.events';
import { toTransaction } from '../transactions/transaction.view';
import { PULL_RAILS, railsOf } from './external-rails';

const invalid = (field: string, message: string) => new ApiError('INVALID_INPUT', `${field}: ${message}`, { errors: [{ field, message }] });

/** POST /transfer-out and /transfer-in: same-currency moves between an internal and an external account. */
export class TransferService {
  constructor(
    private readonly peers: Peers,
    private readonly saga: TransactionSaga,
    private readonly claims: IdempotencyClaims,
    private readonly timeScale: number,
    private readonly rails: Rails,
    private readonly customers: CustomerDirectory,
  ) {}

  /**
   * One transaction per Idempotency-Key: a retry (also after a crash) answers the first one as it is now. The hold
   * is placed again before answering, as the first request would have (a no-op when it is already placed).
   */
  transferOut(caller: CallerContext, request: TransferOutRequest, now: string): Promise<Transaction> {
    this.assertAnyRail(caller, 'PAYOUT');
    const transactionId = `Transaction:${uuidv7()}`;
    return this.claims.run(
      idempotencyScopeOf(caller),
      'transfer-out',
      transactionId,
      (claim) => this.createTransferOut(caller, request, now, transactionId, claim),
      async (transactionId) => this.view(await this.saga.holdNow(transactionId)),
    );
  }

  transferIn(caller: CallerContext, request: TransferInRequest, now: string): Promise<Transaction> {
    this.assertAnyRail(caller, 'PULL');
    const transactionId = `Transaction:${uuidv7()}`;
    return this.claims.run(
      idempotencyScopeOf(caller),
      'transfer-in',
      transactionId,
      (claim) => this.createTransferIn(caller, request, now, transactionId, claim),
      async (transactionId) => this.view(await this.saga.load(transactionId)),
    );
  }

  private async createTransferOut(caller: CallerContext, request: TransferOutRequest, now: string, transactionId: string, claim: ClaimInTransaction): Promise<Transaction> {
    const { source, destination, external } = await this.accounts(caller, request.source.accountId, request.destination.accountId, 'destination');
    await assertCustomerReady(this.customers, caller, source.customerId);
    const rails = railsOf(external.account);
    if (request.destination.paymentRail && rails.length > 0 && !rails.includes(request.destination.paymentRail)) {
      throw invalid('destination.paymentRail', `the account is reachable on ${rails.join(', ')}`);
    }
    const rail = this.railOf(caller, source.currency, 'PAYOUT', request.destination.paymentRail ? [request.destination.paymentRail] : rails, external.sandboxSuffix);
    if ('immediateFailure' in rail) throw new Error('a payout rail never fails at once'); // only sandbox pulls do
    const amount = { amount: request.amount, currency: source.currency };
    const terms: TransactionTerms = {
      ...this.common(caller, transactionId, rail, now),
      type: 'OUTGOING',
      direction: 'DEBIT',
      customerId: source.customerId ?? null,
      source: { sourceType: 'ACCOUNT', accountId: source.accountId, currency: source.currency },
      destination: { destinationType: 'ACCOUNT', accountId: destination.accountId, currency: destination.currency },
      sentAmount: amount,
      receivedAmount: amount,
      description: request.remittanceInformation ?? null,
      paymentRail: rail.outcome === 'CONNECTOR' ? rail.paymentRail : (request.destination.paymentRail ?? rails[0] ?? null),
      railSelectionMode: request.destination.paymentRail ? 'MANUAL' : 'AUTO',
      plan: transferOutPlan(transactionId, source.accountId, request.amount, source.currency),
    };
    const created = await this.saga.apply(transactionId, caller.platformId, { type: 'CreateTransaction', terms, status: 'PENDING', failureReason: null }, this.metadata(caller), { claim, newStream: true });
    return this.view(await this.saga.holdNow(transactionId, created));
  }

  private async createTransferIn(caller: CallerContext, request: TransferInRequest, now: string, transactionId: string, claim: ClaimInTransaction): Promise<Transaction> {
    const { source, destination, external } = await this.accounts(caller, request.source.accountId, request.destination.accountId, 'source');
    await assertCustomerReady(this.customers, caller, destination.customerId);
    const pullRail = railsOf(external.account).find((r) => PULL_RAILS.includes(r));
    if (!pullRail) throw new ApiError('SOURCE_NOT_PULL_CAPABLE', `external account ${source.accountId} cannot be debited: pulls need one of ${PULL_RAILS.join(', ')}`);
    const script = this.railOf(caller, destination.currency, 'PULL', [pullRail], external.sandboxSuffix);
    const rail: RailScript = 'immediateFailure' in script ? { outcome: 'FAIL', delayMs: 0, failureReason: script.immediateFailure } : script;
    const amount = { amount: request.amount, currency: destination.currency };
    const terms: TransactionTerms = {
      ...this.common(caller, transactionId, rail, now),
      type: 'INCOMING',
      direction: 'DEBIT', // a pull: the platform debits the external account (interop §6.1: ACH pull = INCOMING + DEBIT)
      customerId: destination.customerId ?? null,
      source: { sourceType: 'ACCOUNT', accountId: source.accountId, currency: source.currency },
      destination: { destinationType: 'ACCOUNT', accountId: destination.accountId, currency: destination.currency },
      sentAmount: amount,
      receivedAmount: amount,
      description: null,
      paymentRail: pullRail,
      railSelectionMode: 'AUTO',
      plan: transferInPlan(destination.accountId, request.amount, destination.currency),
    };
    const immediate = 'immediateFailure' in script ? script.immediateFailure : null;
    const state = await this.saga.apply(transactionId, caller.platformId, { type: 'CreateTransaction', terms, status: immediate ? 'FAILED' : 'PENDING', failureReason: immediate }, this.metadata(caller), { claim, newStream: true });
    return this.view(state);
  }

  /** A deployment with no production rail in the direction at all answers 501 before looking anything up. */
  private assertAnyRail(caller: CallerContext, direction: RailDirection): void {
    if (caller.mode === 'SANDBOX' || this.rails.hasAny(direction)) return;
    throw notConfigured(
      direction === 'PAYOUT' ? 'PAYOUT_RAIL' : 'PULL_RAIL',
      `no payment rail ${direction === 'PAYOUT' ? 'pays out' : 'pulls'} in production mode on this deployment: configure a rail connector (RAILS_CONFIG_FILE, docs/production.md#rails)`,
      `a ${direction === 'PAYOUT' ? 'payout' : 'pull'} rail connector in RAILS_CONFIG_FILE`,
    );
  }

  /** The payment's rail (Rails.railFor); no production connector for it: 501 before anything is recorded, held or sent. */
  private railOf(caller: CallerContext, currency: string, direction: RailDirection, paymentRails: string[], sandboxSuffix: string | null): RailChoice {
    const rail = this.rails.railFor({ mode: caller.mode, currency, direction, paymentRails, sandboxSuffix });
    if (!rail) throw noProductionRail(currency, direction);
    return rail;
  }

  /** A production rail's timing is the rail's (its calendar, its bridge): not known up front, so not promised. */
  private common(caller: CallerContext, transactionId: string, rail: RailScript, now: string) {
    const seconds = rail.outcome === 'CONNECTOR' ? null : Math.round((rail.delayMs * this.timeScale) / 1000);
    return {
      transactionId,
      platformId: caller.platformId,
      mode: caller.mode,
      fees: 0,
      platformFees: 0,
      exchangeRate: 1,
      quoteId: null,
      settlementTimelineSeconds: seconds,
      expectedSettlementAt: seconds === null ? null : new Date(Date.parse(now) + seconds * 1000).toISOString(),
      rateDetails: null,
      reference: transactionId.slice('Transaction:'.length).replace(/-/g, '').slice(0, 16).toUpperCase(),
      rail,
      createdAt: now,
    };
  }

  /**
   * The transfer's accounts in one lookup, refused in this order: an unknown source, a source of the wrong kind, the
   * same for the destination, different currencies, then an external account that is not ACTIVE.
   */
  private async accounts(caller: CallerContext, sourceAccountId: string, destinationAccountId: string, externalSide: 'source' | 'destination'): Promise<{ source: AccountCurrency; destination: AccountCurrency; external: PayableExternalAccount }> {
    const found = await this.peers.transferAccounts(caller, { sourceAccountId, destinationAccountId, externalSide });
    const source = this.account(found.source, 'source.accountId', externalSide === 'source' ? 'EXTERNAL' : 'INTERNAL');
    const destination = this.account(found.destination, 'destination.accountId', externalSide === 'destination' ? 'EXTERNAL' : 'INTERNAL');
    this.assertSameCurrency(source, destination);
    if (!found.payee) throw new Error('accounts answered an external account without its payee'); // never: same row
    if (found.payee.account.status !== 'ACTIVE') throw externalAccountNotActive(found.payee.account.status);
    return { source, destination, external: found.payee };
  }

  private account(account: AccountCurrency | null, field: string, kind: 'INTERNAL' | 'EXTERNAL'): AccountCurrency {
    if (!account) throw new ApiError('REFERENCE_NOT_FOUND', 'account not found', { errors: [{ field, message: 'no such account' }] });
    if (account.kind !== kind) throw invalid(field, `must be an ${kind.toLowerCase()} account`);
    return account;
  }

  private assertSameCurrency(source: AccountCurrency, destination: AccountCurrency): void {
    if (source.currency !== destination.currency) {
      throw new ApiError('CURRENCY_MISMATCH', `the source holds ${source.currency} and the destination ${destination.currency}: use a quote to convert`, {
        sourceCurrency: source.currency,
        destinationCurrency: destination.currency,
      });
    }
  }

  private metadata(caller: CallerContext) {
    return { correlationId: caller.correlationId, actor: caller.clientId };
  }

  private view(state: Awaited<ReturnType<TransactionSaga['load']>>): Transaction {
    if (state.status === 'NONE') throw new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
    return toTransaction(state);
  }
}

