import type { InvitationClaimedData } from '../invitations/invitations.dto';
import type { StablecoinOperation } from '../stablecoins/stablecoins';
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
import { operatorActionRecorded } from './operator-action.event';

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
  /** The rail's own code when a rail rejected or returned it (an ACH return R01, an ISO 20022 status reason AC04…). */
  railCode?: string;
}

/** StablecoinOperationUpdated.v1: the operation as GET /stablecoin-operations/{id} answers it after the change. */
export interface StablecoinOperationUpdatedData {
  platformId: string;
  mode: Mode;
  operation: StablecoinOperation;
}

// ---- Catalogue ----------------------------------------------------------------------------------------------------

const service = 'payments';

export const PAYMENTS_EVENTS = defineCatalogue(service, [
  operatorActionRecorded(service),
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
  defineEvent({
    service,
    name: 'StablecoinOperationUpdated',
    version: 1,
    visibility: 'public',
    data: dataSchema<StablecoinOperationUpdatedData>('StablecoinOperationUpdatedData'),
    description: 'A stablecoin mint or burn operation was created or changed status: its view after it (webhook STABLECOIN_OPERATION.<status>).',
  }),
  // Internal: saga steps and invitation bookkeeping (codes, links).
  defineEvent({ service, name: 'TransactionFundsHeld', version: 1, visibility: 'internal', description: "The sending account's hold is in place: the payout can start." }),
  defineEvent({ service, name: 'TransactionRailSubmitted', version: 1, visibility: 'internal', description: 'A production payment was handed to its rail connector (a payment file, a bridge): its connector and rail reference (trace number, end-to-end id).' }),
  defineEvent({ service, name: 'InvitationCreated', version: 1, visibility: 'internal', description: 'A UMA invitation was created.' }),
  defineEvent({ service, name: 'InvitationCancelled', version: 1, visibility: 'internal', description: 'A UMA invitation was cancelled.' }),
  defineEvent({ service, name: 'InvitationExpired', version: 1, visibility: 'internal', description: 'A UMA invitation expired.' }),
  // Internal: stablecoin bookkeeping (links hold sealed provider secrets; operation steps carry provider references).
  defineEvent({ service, name: 'StablecoinProviderAccountLinked', version: 1, visibility: 'internal', description: 'Provider credentials were verified and linked (the secret sealed).' }),
  defineEvent({ service, name: 'StablecoinProviderAccountVerified', version: 1, visibility: 'internal', description: 'The provider answered a verification of a link: ACTIVE, INVALID or REVOKED.' }),
  defineEvent({ service, name: 'StablecoinRegistered', version: 1, visibility: 'internal', description: 'A provider-created stablecoin was registered with its provider metadata.' }),
  defineEvent({ service, name: 'StablecoinOperationCreated', version: 1, visibility: 'internal', description: 'A mint or burn was requested (CREATED): its terms and sandbox plan.' }),
  defineEvent({ service, name: 'StablecoinOperationSubmitted', version: 1, visibility: 'internal', description: 'The provider accepted the operation: PENDING_FUNDING with funding instructions, or PENDING_PROVIDER.' }),
  defineEvent({ service, name: 'StablecoinOperationFunded', version: 1, visibility: 'internal', description: 'The provider received the funds the operation waited for (PENDING_PROVIDER).' }),
  defineEvent({ service, name: 'StablecoinOperationProcessing', version: 1, visibility: 'internal', description: 'The provider is moving the tokens or the payout (PROCESSING).' }),
  defineEvent({ service, name: 'StablecoinOperationCompleted', version: 1, visibility: 'internal', description: 'The provider completed the operation; its fiat leg is on the ledger.' }),
  defineEvent({ service, name: 'StablecoinOperationFailed', version: 1, visibility: 'internal', description: 'The provider rejected or failed the operation; a ledger hold was released.' }),
  defineEvent({ service, name: 'StablecoinOperationExpired', version: 1, visibility: 'internal', description: 'The funds did not arrive before expiresAt.' }),
]);
