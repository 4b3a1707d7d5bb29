import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, SandboxUmaReceiveRequest, Transaction } from '@payments/contracts';
import { ClaimInTransaction, IdempotencyClaims } from '@payments/eventsourcing';
import { findCurrency } from '@payments/money';
import { parseUmaAddress } from '@payments/uma';
import type { CustomerDirectory, KnownCustomer } from '../customers/customer-directory';
import { transferInPlan } from '../saga/ledger-plan';
import { INTERNAL_SCRIPT } from '../saga/rail-script';
import type { TransactionSaga } from '../saga/transaction-saga';
import type { TransactionTerms } from '../transactions/transaction.events';
import type { TransactionState } from '../transactions/transaction.state';
import { toTransaction } from '../transactions/transaction.view';
import type { Peers } from '../rpc/peers';
import { awaitArrival, idempotencyScopeOf } from '@payments/runtime';

const invalid = (code: 'INVALID_INPUT' | 'INVALID_UMA_ADDRESS' | 'INVALID_CURRENCY', field: string, message: string) => new ApiError(code, `${field}: ${message}`, { errors: [{ field, message }] });

/**
 * POST /sandbox/uma/receive: a UMA payment from `senderUmaAddress` arrives for one of the platform's customers. It
 * becomes an INCOMING transaction on the payments saga: created PENDING awaiting the platform's approval
 * (TransactionApprovals), then settled from CLEARING into the receiver's internal account (ledger entry
 * `<transactionId>/credit`, so a repeated step credits once) and COMPLETED, or FAILED when the platform rejects it.
 */
export class UmaReceiveService {
  constructor(
    private readonly customers: CustomerDirectory,
    private readonly accounts: Pick<Peers, 'customerInternalAccount'>,
    private readonly saga: TransactionSaga,
    private readonly claims: IdempotencyClaims,
    /** How long to wait for the internal account of a currency the customer has, opened from identity's event. */
    private readonly accountArrivalWaitMs: number,
  ) {}

  /** One INCOMING transaction per Idempotency-Key: a retry (also after a crash) answers it as it is now. */
  receive(caller: CallerContext, request: SandboxUmaReceiveRequest, now: string): Promise<Transaction> {
    if (caller.mode !== 'SANDBOX') throw new ApiError('NOT_FOUND', 'no such resource or route');
    const transactionId = `Transaction:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'uma-receive', transactionId, (claim) => this.receiveNew(caller, request, now, transactionId, claim), async (id) => view(await this.saga.load(id)));
  }

  private async receiveNew(caller: CallerContext, request: SandboxUmaReceiveRequest, now: string, transactionId: string, claim: ClaimInTransaction): Promise<Transaction> {
    const sender = parseUmaAddress(request.senderUmaAddress);
    if (!sender) throw invalid('INVALID_UMA_ADDRESS', 'senderUmaAddress', 'must be $user@domain');
    const receiver = await this.receiver(caller, request);
    const currency = request.receivingCurrencyCode;
    const accountId = await this.accountOf(caller, receiver, currency);
    const amount = { amount: request.receivingCurrencyAmount, currency };
    const terms: TransactionTerms = {
      transactionId,
      platformId: caller.platformId,
      mode: caller.mode,
      type: 'INCOMING',
      direction: 'CREDIT',
      customerId: receiver.customerId,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.address },
      destination: { destinationType: 'ACCOUNT', accountId, currency },
      sentAmount: amount, // the sender's side is not known to the sandbox: shown in the receiving currency
      receivedAmount: amount,
      fees: 0,
      platformFees: 0,
      exchangeRate: 1,
      quoteId: null,
      description: null,
      paymentRail: null,
      railSelectionMode: null,
      settlementTimelineSeconds: 0,
      expectedSettlementAt: now,
      rateDetails: null,
      reference: transactionId.slice('Transaction:'.length).replace(/-/g, '').slice(0, 16).toUpperCase(),
      // A UMA payment asks the platform first (interop §3.2): PENDING until it approves, rejects, or the window ends.
      awaitsPlatformApproval: true,
      plan: transferInPlan(accountId, request.receivingCurrencyAmount, currency),
      // Once approved, the credit settles at once (the saga's next timer round).
      rail: INTERNAL_SCRIPT,
      createdAt: now,
    };
    const metadata = { correlationId: caller.correlationId, actor: caller.clientId };
    return view(await this.saga.apply(transactionId, caller.platformId, { type: 'CreateTransaction', terms, status: 'PENDING', failureReason: null }, metadata, { claim, newStream: true }));
  }

  /** By UMA address (404 UMA_NOT_FOUND) or by id (404 USER_NOT_FOUND), among the caller's live customers. */
  private async receiver(caller: CallerContext, request: SandboxUmaReceiveRequest): Promise<KnownCustomer> {
    const byAddress = request.receiverUmaAddress !== undefined;
    if (byAddress === (request.customerId !== undefined)) throw invalid('INVALID_INPUT', 'receiverUmaAddress', 'send exactly one of receiverUmaAddress and customerId');
    if (!byAddress) return this.customers.byId(caller, request.customerId!);
    const address = parseUmaAddress(request.receiverUmaAddress!);
    if (!address) throw invalid('INVALID_UMA_ADDRESS', 'receiverUmaAddress', 'must be $user@domain');
    const customer = await this.customers.byUmaAddress(caller, address.address);
    if (!customer) throw new ApiError('UMA_NOT_FOUND', `no customer of this platform has the UMA address ${address.address}`);
    return customer;
  }

  /** The receiver's ACTIVE internal account in `currency`, or 400 INVALID_CURRENCY. */
  private async accountOf(caller: CallerContext, receiver: KnownCustomer, currency: string): Promise<string> {
    const refused = () => invalid('INVALID_CURRENCY', 'receivingCurrencyCode', `the receiver has no ${currency} internal account`);
    if (!findCurrency(currency)) throw refused();
    // A currency the customer holds may still be opening (accounts opens it from identity's event): wait briefly.
    const waitMs = receiver.currencies.includes(currency) ? this.accountArrivalWaitMs : 0;
    const account = await awaitArrival(() => this.accounts.customerInternalAccount(caller, receiver.customerId, currency), waitMs);
    if (!account) throw refused();
    return account.id;
  }
}

function view(state: TransactionState): Transaction {
  if (state.status === 'NONE') throw new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
  return toTransaction(state);
}
