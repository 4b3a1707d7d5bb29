import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import type { PaymentInstructions, QuoteCurrency } from '../quotes/quotes.dto';

export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;

/** GET /customers/internal-accounts. */
export class ListInternalAccountsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
  @OptionalNotNull() @IsIn(INTERNAL_ACCOUNT_TYPES) type?: InternalAccountType;
}

/** GET /platform/internal-accounts: not paginated. */
export class ListPlatformInternalAccountsQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  @OptionalNotNull() @IsIn(INTERNAL_ACCOUNT_TYPES) type?: InternalAccountType;
}

/** POST /sandbox/internal-accounts/{accountId}/fund. */
export class FundInternalAccountRequest {
  @IsInt() @Min(1) @Max(100_000_000_000) amount!: number;
}

/**
 * PATCH /internal-accounts/{id}: the fields to change, at least one (an empty body is 400). A two-step signed retry:
 * the retry repeats the same fields.
 */
export class UpdateInternalAccountRequest {
  /** Whether wallet privacy is enabled for the Embedded Wallet (EMBEDDED_WALLET accounts only). */
  @OptionalNotNull() @IsBoolean() privateEnabled?: boolean;
}

export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];

/** An amount of money with its currency. */
export interface CurrencyAmount {
  /**
   * In the smallest unit of the currency.
   * @asType integer
   */
  amount: number;
  currency: QuoteCurrency;
}

export interface InternalAccount {
  /** @pattern ^InternalAccount: */
  id: string;
  /** Absent for platform accounts. */
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  /** Available: total minus held funds. */
  balance: CurrencyAmount;
  /** Including held funds. */
  totalBalance: CurrencyAmount;
  fundingPaymentInstructions: PaymentInstructions[];
  /** Whether wallet privacy is enabled for the Embedded Wallet. Only present for EMBEDDED_WALLET internal accounts. */
  privateEnabled?: boolean;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** GET /platform/internal-accounts: every platform internal account, not paginated. */
export interface InternalAccountList {
  data: InternalAccount[];
}

export const isInternalAccountId = (value: string): boolean => /^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
