import type { TransactionFailureReason, TransactionRefund, TransactionStatus, UnresolvedFunds } from '@payments/contracts';
import type { TransactionTerms } from './transaction.events';

/** What changes after creation. */
export interface TransactionProgress {
  status: TransactionStatus;
  failureReason: TransactionFailureReason | null;
  refund: TransactionRefund | null;
  unresolvedFunds: UnresolvedFunds | null;
  settledAt: string | null;
  updatedAt: string;
}

export type ExistingTransaction = TransactionTerms & TransactionProgress;
export type TransactionState = { status: 'NONE' } | ExistingTransaction;
