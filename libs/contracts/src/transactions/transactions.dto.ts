import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNotEmptyObject, IsObject, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import type { CurrencyAmount } from '../accounts/internal-accounts.dto';
import { CARD_TRANSACTION_STATUSES, type CardTransaction } from '../cards/cards';

/** Statuses a transaction of this service takes (interop §6.1 TransactionStatus; transitions in docs/payments.md). */
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** The published TransactionStatus enum: a list filter may name any of them (those this service never uses match nothing). */
export const PUBLISHED_TRANSACTION_STATUSES = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;
/** The types of the transactions payments itself creates (its events, its decider). */
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
/** The types GET /transactions lists: payments' own, and CARD (card transactions, from the cards service's events). */
export const LISTED_TRANSACTION_TYPES = [...TRANSACTION_TYPES, 'CARD'] as const;
export type ListedTransactionType = (typeof LISTED_TRANSACTION_TYPES)[number];
/**
 * The `status` values GET /transactions accepts: the published TransactionStatus enum, then the card transaction
 * statuses not already in it (REFUNDED is in both). A status no listed transaction takes matches nothing.
 */
export const LISTED_TRANSACTION_STATUSES = [
  ...PUBLISHED_TRANSACTION_STATUSES,
  ...CARD_TRANSACTION_STATUSES.filter((status) => !(PUBLISHED_TRANSACTION_STATUSES as readonly string[]).includes(status)),
] as readonly ((typeof PUBLISHED_TRANSACTION_STATUSES)[number] | (typeof CARD_TRANSACTION_STATUSES)[number])[];
export type ListedTransactionStatus = (typeof LISTED_TRANSACTION_STATUSES)[number];
export type TransactionDirection = 'CREDIT' | 'DEBIT';
export type RailSelectionMode = 'AUTO' | 'MANUAL';
export const PURPOSES_OF_PAYMENT = [
  'GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT', 'LOAN_PAYMENT',
  'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER',
] as const;

/** The published OutgoingTransactionFailureReason and IncomingTransactionFailureReason enums (interop §6.1). */
export const OUTGOING_FAILURE_REASONS = [
  'QUOTE_EXPIRED', 'QUOTE_RATE_UNAVAILABLE', 'QUOTE_EXECUTION_FAILED', 'FUNDING_AMOUNT_MISMATCH', 'SCA_NOT_COMPLETED', 'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED', 'ACCOUNT_CANNOT_RECEIVE', 'ACCOUNT_INVALID', 'COMPLIANCE_REJECTED', 'LIGHTNING_PAYMENT_FAILED', 'COUNTERPARTY_POST_TX_FAILED',
] as const;
export type OutgoingFailureReason = (typeof OUTGOING_FAILURE_REASONS)[number];
export const INCOMING_FAILURE_REASONS = [
  'LNURLP_FAILED', 'PAY_REQUEST_FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR', 'PAYMENT_APPROVAL_TIMED_OUT', 'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA', 'QUOTE_EXPIRED', 'QUOTE_EXECUTION_FAILED', 'COMPLIANCE_REJECTED', 'COLLECTION_FAILED',
] as const;
export type IncomingFailureReason = (typeof INCOMING_FAILURE_REASONS)[number];

/**
 * Why a transaction of this service failed, as its events record it. The public `failureReason` is always a published
 * value; where ours is finer (INSUFFICIENT_FUNDS, ACCOUNT_CLOSED, RAIL_NOT_AVAILABLE, REJECTED_BY_PLATFORM) it is
 * also shown as `failureDetail` (mapping in docs/payments.md).
 */
export type TransactionFailureReason =
  | 'INSUFFICIENT_FUNDS'
  | 'QUOTE_EXECUTION_FAILED'
  | 'PAYOUT_RETURNED'
  | 'ACCOUNT_CANNOT_RECEIVE'
  | 'ACCOUNT_INVALID'
  | 'ACCOUNT_CLOSED'
  | 'COLLECTION_FAILED'
  | 'COMPLIANCE_REJECTED'
  /** A rail's limit (ISO 20022 AM02, AM14, AM23). */
  | 'LIMIT_EXCEEDED'
  /** The receiving side failed after the payment left (ISO 20022 MS02, MS03, NARR; unknown codes). */
  | 'COUNTERPARTY_POST_TX_FAILED'
  | 'RAIL_NOT_AVAILABLE'
  | 'REJECTED_BY_PLATFORM';

class TransferAccountRef {
  @IsString() @MaxLength(64) accountId!: string;
}

class TransferOutDestination extends TransferAccountRef {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z_]{2,20}$/) paymentRail?: string;
}

/** POST /transfer-in: a pull from the customer's pull-capable external account into an internal account. */
export class TransferInRequest {
  @IsNotEmptyObject() @ValidateNested() @Type(() => TransferAccountRef) source!: TransferAccountRef;
  @IsNotEmptyObject() @ValidateNested() @Type(() => TransferAccountRef) destination!: TransferAccountRef;
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount!: number;
}

/** POST /transfer-out: a payout from an internal account to an external account of the same currency. */
export class TransferOutRequest {
  @IsNotEmptyObject() @ValidateNested() @Type(() => TransferAccountRef) source!: TransferAccountRef;
  @IsNotEmptyObject() @ValidateNested() @Type(() => TransferOutDestination) destination!: TransferOutDestination;
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount!: number;
  /** ACH addenda, RTP/FedNow remittance or wire OBI. */
  @OptionalNotNull() @IsString() @MaxLength(80) remittanceInformation?: string;
  @OptionalNotNull() @IsIn(PURPOSES_OF_PAYMENT) purposeOfPayment?: (typeof PURPOSES_OF_PAYMENT)[number];
}

/** Longest account identifier: an account id, or a UMA address (`$` + 64 + `@` + 253). */
const ACCOUNT_IDENTIFIER_MAX = 319;

/**
 * GET /transactions (the published filters). An account identifier is the account's id (`InternalAccount:…`,
 * `ExternalAccount:…`) or, for a UMA side, the UMA address: the sender is the source, the receiver the destination.
 */
export class ListTransactionsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @OptionalNotNull() @IsString() @MaxLength(128) platformCustomerId?: string;
  /** Either side (sender or receiver). */
  @OptionalNotNull() @IsString() @MaxLength(ACCOUNT_IDENTIFIER_MAX) accountIdentifier?: string;
  @OptionalNotNull() @IsString() @MaxLength(ACCOUNT_IDENTIFIER_MAX) senderAccountIdentifier?: string;
  @OptionalNotNull() @IsString() @MaxLength(ACCOUNT_IDENTIFIER_MAX) receiverAccountIdentifier?: string;
  /** This service's older name of accountIdentifier, kept as its alias. */
  @OptionalNotNull() @IsString() @MaxLength(ACCOUNT_IDENTIFIER_MAX) accountId?: string;
  /** `reconciliationInstructions.reference`. */
  @OptionalNotNull() @IsString() @MaxLength(128) reference?: string;
  /** A published TransactionStatus, or a card transaction's status (AUTHORIZED, PARTIALLY_SETTLED, SETTLED, REFUNDED, EXCEPTION). */
  @OptionalNotNull() @IsIn(LISTED_TRANSACTION_STATUSES) status?: ListedTransactionStatus;
  @OptionalNotNull() @IsIn(LISTED_TRANSACTION_TYPES) type?: ListedTransactionType;
  /** createdAt >= startDate. */
  @OptionalNotNull() @IsISO8601({ strict: true }) startDate?: string;
  /** createdAt <= endDate (inclusive, as published). */
  @OptionalNotNull() @IsISO8601({ strict: true }) endDate?: string;
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
}

/** POST /transactions/{id}/approve (published ApprovePaymentRequest). */
export class ApprovePaymentRequest {
  /** What the sender's side asked to know of the receiver (`requestedReceiverCustomerInfoFields`). */
  @OptionalNotNull() @IsObject() receiverCustomerInfo?: Record<string, unknown>;
}

/** POST /transactions/{id}/reject (published RejectPaymentRequest). */
export class RejectPaymentRequest {
  /** The platform's own reason, kept on the transaction as `rejectionReason`. */
  @OptionalNotNull() @IsString() @MaxLength(255) reason?: string;
}

/** POST /sandbox/send: the realtime funds of a quote arrive. */
export class SandboxSendRequest {
  @IsString() @MaxLength(64) quoteId!: string;
  @IsString() @Matches(/^[A-Z]{3,5}$/) currencyCode!: string;
  @OptionalNotNull() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) currencyAmount?: number;
}

export type TransactionSource =
  | { sourceType: 'ACCOUNT'; accountId: string; currency?: string }
  | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId?: string }
  /** An incoming UMA payment (POST /sandbox/uma/receive): the sender's UMA address. */
  | { sourceType: 'UMA_ADDRESS'; umaAddress: string; currency?: string };
export type TransactionDestination =
  | { destinationType: 'ACCOUNT'; accountId: string; currency?: string }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency?: string };

/** interop §6.1 Refund. */
export interface TransactionRefund {
  reference: string;
  /** @format date-time */
  initiatedAt: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason?: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
  /** @format date-time */
  settledAt?: string;
}

/** Where money sits that neither reached the receiver nor went back to the sender (sandbox suffix 007): visible, never lost. */
export interface UnresolvedFunds extends CurrencyAmount {
  /** The ledger system account that holds it until an operator resolves it. */
  ledgerPurpose: 'SUSPENSE';
}

/** The public transaction: optional fields are absent when they have no value (only the published nullable ones take null). */
interface TransactionBase {
  /** @pattern ^Transaction: */
  id: string;
  status: TransactionStatus;
  direction: TransactionDirection;
  customerId: string | null;
  /** The platform's own id of the customer, from payments' copy of identity's customers; null when not known (docs/payments.md). */
  platformCustomerId: string | null;
  source: TransactionSource;
  destination: TransactionDestination;
  sentAmount: CurrencyAmount;
  receivedAmount: CurrencyAmount;
  /**
   * Sending currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  fees: number;
  /** Sending units per receiving unit; 1 for same-currency transfers. */
  exchangeRate: number;
  quoteId?: string;
  description?: string;
  reconciliationInstructions: { reference: string };
  /**
   * This service's finer reason where the published `failureReason` is coarser, or the rail's own code when a rail
   * rejected or returned the payment (an ACH return code such as R01, an ISO 20022 reason such as AC04): not a published field.
   */
  failureDetail?: string;
  /** The platform's `reason` when it rejected the payment (not a published field). */
  rejectionReason?: string;
  refund?: TransactionRefund;
  /**
   * Money that neither reached the receiver nor returned to the sender (sandbox suffix 007), parked in the ledger SUSPENSE account until an operator resolves it: visible, never lost.
   */
  unresolvedFunds?: UnresolvedFunds;
  /** @format date-time */
  settledAt?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface IncomingTransaction extends TransactionBase {
  type: 'INCOMING';
  failureReason?: IncomingFailureReason;
}

export interface OutgoingTransaction extends TransactionBase {
  type: 'OUTGOING';
  failureReason?: OutgoingFailureReason;
  /**
   * @asType integer
   * @minimum 0
   */
  platformFees: number;
  paymentRail: string | null;
  railSelectionMode: RailSelectionMode | null;
  /** @format date-time */
  expectedSettlementAt: string | null;
  // A whole number, but `@asType integer` would drop the null.
  /**
   * Whole seconds.
   * @minimum 0
   */
  settlementTimelineSeconds: number | null;
  rateDetails?: Record<string, number>;
}

/** A transaction payments itself creates and moves (stream `Transaction:<uuid>`): its events and webhooks carry this. */
export type PaymentTransaction = IncomingTransaction | OutgoingTransaction;

/**
 * IncomingTransaction, OutgoingTransaction or CardTransaction, discriminated by `type` (INCOMING, OUTGOING, CARD):
 * what GET /transactions lists and GET /transactions/{id} answers. Card transactions are the cards service's
 * (`CardTransaction:<uuid>`), kept in payments' read model from its CardTransactionUpdated.v1 events.
 */
export type Transaction = IncomingTransaction | OutgoingTransaction | CardTransaction;

/** A well-formed id of a transaction GET /transactions/{id} can answer: `Transaction:<uuid>` or `CardTransaction:<uuid>`. */
export const isTransactionId = (value: string): boolean => /^(Card)?Transaction:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
