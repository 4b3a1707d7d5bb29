import type { InvitationClaimedData } from '../invitations/invitations.dto';
import type { Mode } from '../rpc/rpc';
import type { TransactionStatusChangedData } from '../transactions/transaction-events';
import type {
  RailSelectionMode,
  TransactionDestination,
  TransactionDirection,
  TransactionFailureReason,
  TransactionRefund,
  TransactionSource,
  TransactionType,
  UnresolvedFunds,
} from '../transactions/transactions.dto';
import { dataSchema, defineCatalogue, defineEvent, withoutFields } from './catalogue';

/** The payments service's events (topic `payments.payments.events.v1`): transactions and UMA invitations. */

// ---- Public data ---------------------------------------------------------------------------------------------------

/** An amount in a currency's smallest unit. */
export interface MinorUnitAmount {
  amount: number;
  currency: string;
}

/** A transaction's public terms, fixed when it is created (its ledger plan and rail script stay in payments). */
export interface TransactionPublicTerms {
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
  sentAmount: MinorUnitAmount;
  receivedAmount: MinorUnitAmount;
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
  createdAt: string;
}

/** A transaction (stream `Transaction:<uuid>`) was created; a TransactionStatusChanged.v1 with its view follows. */
export interface TransactionCreatedData extends TransactionPublicTerms {
  status: 'PENDING' | 'PROCESSING' | 'FAILED';
  failureReason: TransactionFailureReason | null;
}

/** The platform approved an incoming payment (POST /approve), or its sandbox approval window ended unanswered. */
export interface TransactionApprovedData {
  transactionId: string;
  at: string;
  by: 'PLATFORM' | 'APPROVAL_WINDOW';
}

export interface TransactionCompletedData {
  transactionId: string;
  settledAt: string;
}

export interface TransactionFailedData {
  transactionId: string;
  at: string;
  failureReason: TransactionFailureReason;
  refund: TransactionRefund | null;
  unresolvedFunds: UnresolvedFunds | null;
  /** The platform's reason when it rejected an incoming payment. */
  rejectionReason?: string;
}

// ---- Catalogue ----------------------------------------------------------------------------------------------------

const service = 'payments';

export const PAYMENTS_EVENTS = defineCatalogue(service, [
  defineEvent({
    service,
    name: 'TransactionCreated',
    version: 1,
    visibility: 'public',
    data: dataSchema<TransactionCreatedData>('TransactionCreatedData'),
    // The saga's ledger plan and rail script are how payments runs it, not facts about the transaction.
    publicData: withoutFields<TransactionCreatedData>('plan', 'rail'),
    description: 'A transaction was created (its public terms; the saga plan and rail stay in payments).',
  }),
  defineEvent({ service, name: 'TransactionApproved', version: 1, visibility: 'public', data: dataSchema<TransactionApprovedData>('TransactionApprovedData'), description: 'The platform approved an incoming payment.' }),
  defineEvent({ service, name: 'TransactionCompleted', version: 1, visibility: 'public', data: dataSchema<TransactionCompletedData>('TransactionCompletedData'), description: 'A transaction settled.' }),
  defineEvent({ service, name: 'TransactionFailed', version: 1, visibility: 'public', data: dataSchema<TransactionFailedData>('TransactionFailedData'), description: 'A transaction failed (or a completed payout was returned).' }),
  defineEvent({
    service,
    name: 'TransactionStatusChanged',
    version: 1,
    visibility: 'public',
    data: dataSchema<TransactionStatusChangedData>('TransactionStatusChangedData'),
    description: "Every status change of a transaction, its creation included: the transaction's public view after it.",
  }),
  defineEvent({
    service,
    name: 'InvitationClaimed',
    version: 1,
    visibility: 'public',
    data: dataSchema<InvitationClaimedData>('InvitationClaimedData'),
    description: 'A UMA invitation was claimed (carries the invitation, for the inviting platform).',
  }),
  // Internal: saga steps and invitation bookkeeping (codes, links).
  defineEvent({ service, name: 'TransactionFundsHeld', version: 1, visibility: 'internal', description: "The sending account's hold is in place: the payout can start." }),
  defineEvent({ service, name: 'InvitationCreated', version: 1, visibility: 'internal', description: 'A UMA invitation was created.' }),
  defineEvent({ service, name: 'InvitationCancelled', version: 1, visibility: 'internal', description: 'A UMA invitation was cancelled.' }),
  defineEvent({ service, name: 'InvitationExpired', version: 1, visibility: 'internal', description: 'A UMA invitation expired.' }),
]);
