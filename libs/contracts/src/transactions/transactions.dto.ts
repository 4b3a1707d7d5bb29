import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNotEmptyObject, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import type { CurrencyAmount } from '../accounts/internal-accounts.dto';

/** Statuses a transaction of this service takes (interop §6.1 TransactionStatus; transitions in docs/payments.md). */
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export type TransactionDirection = 'CREDIT' | 'DEBIT';
export type RailSelectionMode = 'AUTO' | 'MANUAL';
export const PURPOSES_OF_PAYMENT = [
  'GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT', 'LOAN_PAYMENT',
  'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER',
] as const;

/** Failure reasons (interop §6.1 Outgoing/IncomingTransactionFailureReason); INSUFFICIENT_FUNDS and ACCOUNT_CLOSED are this service's for pulls. */
export type TransactionFailureReason =
  | 'INSUFFICIENT_FUNDS'
  | 'QUOTE_EXECUTION_FAILED'
  | 'PAYOUT_RETURNED'
  | 'ACCOUNT_CANNOT_RECEIVE'
  | 'ACCOUNT_INVALID'
  | 'ACCOUNT_CLOSED'
  | 'COLLECTION_FAILED'
  | 'COMPLIANCE_REJECTED'
  | 'RAIL_NOT_AVAILABLE';

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

/** GET /transactions. */
export class ListTransactionsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  /** Source or destination account. */
  @OptionalNotNull() @IsString() @MaxLength(64) accountId?: string;
  @OptionalNotNull() @IsIn(TRANSACTION_STATUSES) status?: TransactionStatus;
  @OptionalNotNull() @IsIn(TRANSACTION_TYPES) type?: TransactionType;
  /** createdAt >= startDate. */
  @OptionalNotNull() @IsISO8601({ strict: true }) startDate?: string;
  /** createdAt < endDate. */
  @OptionalNotNull() @IsISO8601({ strict: true }) endDate?: string;
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
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
  initiatedAt: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason?: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
  settledAt?: string;
}

/** Where money sits that neither reached the receiver nor went back to the sender (sandbox suffix 007): visible, never lost. */
export interface UnresolvedFunds extends CurrencyAmount {
  /** The ledger system account that holds it until an operator resolves it. */
  ledgerPurpose: 'SUSPENSE';
}

interface TransactionBase {
  id: string;
  status: TransactionStatus;
  direction: TransactionDirection;
  customerId: string | null;
  /** The platform's own id of the customer: null, the payments service does not see customer records (docs/payments.md). */
  platformCustomerId: string | null;
  source: TransactionSource;
  destination: TransactionDestination;
  sentAmount: CurrencyAmount;
  receivedAmount: CurrencyAmount;
  fees: number;
  exchangeRate: number;
  quoteId: string | null;
  description: string | null;
  reconciliationInstructions: { reference: string };
  failureReason: TransactionFailureReason | null;
  refund: TransactionRefund | null;
  unresolvedFunds?: UnresolvedFunds;
  settledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface IncomingTransaction extends TransactionBase {
  type: 'INCOMING';
}

export interface OutgoingTransaction extends TransactionBase {
  type: 'OUTGOING';
  platformFees: number;
  paymentRail: string | null;
  railSelectionMode: RailSelectionMode | null;
  expectedSettlementAt: string | null;
  settlementTimelineSeconds: number | null;
  rateDetails: Record<string, number> | null;
}

export type Transaction = IncomingTransaction | OutgoingTransaction;

export const isTransactionId = (value: string): boolean => /^Transaction:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
