import type { DomainEvent } from '@payments/eventsourcing';
import type {
  Mode,
  RailSelectionMode,
  TransactionDestination,
  TransactionDirection,
  TransactionFailureReason,
  TransactionRefund,
  TransactionSource,
  TransactionStatusChangedData,
  TransactionType,
  UnresolvedFunds,
} from '@payments/contracts';
import type { LedgerPlan } from '../saga/ledger-plan';
import type { RailScript } from '../saga/rail-script';

/** An amount in a currency's smallest unit; the view shows the currency as the Currency object. */
export interface Amount {
  amount: number;
  currency: string;
}

/** Everything fixed when a transaction is created: its public terms, its ledger plan and what its rail will do. */
export interface TransactionTerms {
  transactionId: string;
  platformId: string;
  mode: Mode;
  type: TransactionType;
  direction: TransactionDirection;
  customerId: string | null;
  /** The platform's own id of the customer, from payments' customer directory at creation (absent in older events). */
  platformCustomerId?: string | null;
  source: TransactionSource;
  destination: TransactionDestination;
  sentAmount: Amount;
  receivedAmount: Amount;
  fees: number;
  platformFees: number;
  exchangeRate: number;
  quoteId: string | null;
  description: string | null;
  paymentRail: string | null;
  railSelectionMode: RailSelectionMode | null;
  settlementTimelineSeconds: number | null;
  expectedSettlementAt: string | null;
  rateDetails: Record<string, number> | null;
  /** Reconciliation reference the rail carries (memo / end-to-end id). */
  reference: string;
  /** An incoming UMA payment: PENDING until the platform approves or rejects it (absent in older events: false). */
  awaitsPlatformApproval?: boolean;
  plan: LedgerPlan;
  rail: RailScript;
  createdAt: string;
}

export type TransactionCreated = DomainEvent<'TransactionCreated.v1', TransactionTerms & { status: 'PENDING' | 'PROCESSING' | 'FAILED'; failureReason: TransactionFailureReason | null }>;
/** The sending account's hold is in place: the payout can start. */
export type TransactionFundsHeld = DomainEvent<'TransactionFundsHeld.v1', { transactionId: string; at: string }>;
export type TransactionCompleted = DomainEvent<'TransactionCompleted.v1', { transactionId: string; settledAt: string }>;
/** The platform approved an incoming payment (POST /approve), or its sandbox approval window ended unanswered. */
export type TransactionApproved = DomainEvent<'TransactionApproved.v1', { transactionId: string; at: string; by: 'PLATFORM' | 'APPROVAL_WINDOW' }>;
export type TransactionFailed = DomainEvent<
  'TransactionFailed.v1',
  {
    transactionId: string;
    at: string;
    failureReason: TransactionFailureReason;
    refund: TransactionRefund | null;
    unresolvedFunds: UnresolvedFunds | null;
    /** The platform's reason when it rejected an incoming payment. */
    rejectionReason?: string;
  }
>;
/** The public contract (libs/contracts): appended with every status change, its creation included. */
export type TransactionStatusChanged = DomainEvent<'TransactionStatusChanged.v1', TransactionStatusChangedData>;

export type TransactionEvent = TransactionCreated | TransactionFundsHeld | TransactionApproved | TransactionCompleted | TransactionFailed | TransactionStatusChanged;
