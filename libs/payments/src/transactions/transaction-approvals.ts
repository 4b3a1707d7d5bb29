import { ApiError, ApprovePaymentRequest, CallerContext, RejectPaymentRequest, Transaction } from '@payments/contracts';
import { IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import type { TransactionSaga } from '../saga/transaction-saga';
import { ApproveTransaction, NOT_PENDING_APPROVAL, RejectTransaction } from './transaction.decider';
import type { TransactionQueries } from './transaction-queries';
import { toTransaction } from './transaction.view';

/**
 * POST /transactions/{id}/approve and /reject: the platform's answer to an incoming payment that awaits its approval
 * (interop §3.2). Approval lets the rail settle it (PENDING → COMPLETED); rejection fails it before anything moved.
 * Any other transaction (a card transaction included), or one already decided, is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.
 */
export class TransactionApprovals {
  constructor(
    private readonly saga: TransactionSaga,
    private readonly queries: TransactionQueries,
    private readonly claims: IdempotencyClaims,
  ) {}

  /** `receiverCustomerInfo` is validated, not kept: the sandbox has no sender's institution to hand it to. */
  approve(caller: CallerContext, transactionId: string, _request: ApprovePaymentRequest, now: string): Promise<Transaction> {
    return this.decide(caller, transactionId, 'transaction-approve', { type: 'ApproveTransaction', now, by: 'PLATFORM' });
  }

  reject(caller: CallerContext, transactionId: string, request: RejectPaymentRequest, now: string): Promise<Transaction> {
    return this.decide(caller, transactionId, 'transaction-reject', { type: 'RejectTransaction', now, ...(request.reason !== undefined ? { reason: request.reason } : {}) });
  }

  /** One decision per Idempotency-Key: a retry (also after a crash) answers the transaction as it is now. */
  private async decide(caller: CallerContext, transactionId: string, operation: string, command: ApproveTransaction | RejectTransaction): Promise<Transaction> {
    const current = await this.queries.get(caller, transactionId); // another platform's or mode's transaction is 404, like a missing one
    if (current.type === 'CARD') throw new ApiError(NOT_PENDING_APPROVAL, `transaction ${transactionId} is a card transaction, not an incoming payment awaiting the platform's approval`, { status: current.status });
    const metadata = { correlationId: caller.correlationId, actor: caller.clientId };
    return this.claims.run(
      idempotencyScopeOf(caller),
      operation,
      transactionId,
      async (claim) => {
        const state = await this.saga.apply(transactionId, caller.platformId, command, metadata, { claim });
        if (state.status === 'NONE') throw new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
        return toTransaction(state);
      },
      () => this.queries.get(caller, transactionId),
    );
  }
}
