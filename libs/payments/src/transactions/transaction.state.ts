import type { TransactionFailureReason, TransactionRefund, TransactionStatus, UnresolvedFunds } from '@payments/contracts';
import type { TransactionTerms } from './transaction.events';

/** What changes after creation. */
export interface TransactionProgress {
  status: TransactionStatus;
  failureReason: TransactionFailureReason | null;
  refund: TransactionRefund | null;
  unresolvedFunds: UnresolvedFunds | null;
  settledAt: string | null;
  /** When the platform (or the sandbox approval window) approved an incoming payment that awaited it. */
  approvedAt?: string;
  rejectionReason?: string;
  /** A production payment's connector and rail reference (trace number, end-to-end id), once submitted. */
  railSubmission?: { connectorId: string; railReference: string; at: string };
  /** The rail's code of a rejection or return (R01, AC04…), shown as failureDetail. */
  railCode?: string;
  updatedAt: string;
}

export type ExistingTransaction = TransactionTerms & TransactionProgress;
export type TransactionState = { status: 'NONE' } | ExistingTransaction;

/** An incoming payment the platform has yet to approve or reject (interop §3.2): nothing moves until it does. */
export const awaitsApproval = (s: ExistingTransaction): boolean => s.status === 'PENDING' && s.awaitsPlatformApproval === true && s.approvedAt === undefined;
